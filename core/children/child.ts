import type { Client, Tool } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEntry } from '../config/schema.js';
import type { ChildConnection, ChildType } from './child-type.js';
import { createToolFilter } from './tool-filter.js';

export type ChildStatus = 'starting' | 'up' | 'down' | 'stopped' | 'sleeping' | 'unauthorized';

/**
 * One configured server. It owns its status, the in-memory tool list (refreshed when
 * the child says its list changed) and the allow/deny filter; everything that answers
 * about children reads this object, never the wire, unless it is a call.
 */
export class Child {
  status: ChildStatus;
  lastError: string | undefined;
  /** The child's advertised title (or name), for `list_servers`. */
  title: string | undefined;
  instructions: string | undefined;
  #tools: Tool[] = [];
  #connection: ChildConnection | undefined;
  #starting: Promise<Client> | undefined;
  readonly #isToolAllowed: (toolName: string) => boolean;

  constructor(
    readonly name: string,
    readonly entry: ServerEntry,
    readonly childType: ChildType,
    readonly log: FastifyBaseLogger,
  ) {
    this.#isToolAllowed = createToolFilter(entry);
    this.status = this.alwaysRunning ? 'down' : 'sleeping';
  }

  get alwaysRunning(): boolean {
    return this.childType.alwaysRunning(this.entry);
  }

  /** Servers with `hub: false` stay out of `/hub`'s aggregate. */
  get hidden(): boolean {
    return this.entry.hub === false;
  }

  get description(): string {
    return this.title ?? this.name;
  }

  /** The tools that survive the allow/deny filter. */
  get tools(): Tool[] {
    return this.#tools.filter((tool) => this.#isToolAllowed(tool.name));
  }

  isToolAllowed(toolName: string): boolean {
    return this.#isToolAllowed(toolName);
  }

  findTool(toolName: string): Tool | undefined {
    return this.isToolAllowed(toolName) ? this.#tools.find((tool) => tool.name === toolName) : undefined;
  }

  /** Adopts a tool list known without a connection (a snapshot on disk). */
  adoptTools(tools: Tool[]): void {
    this.#tools = tools;
  }

  /**
   * The connected client, starting the child when needed. Concurrent callers share one
   * start, so N first uses start one process.
   */
  ensureUp(): Promise<Client> {
    if (this.#connection && this.status === 'up') return Promise.resolve(this.#connection.client);
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #start(): Promise<Client> {
    this.status = 'starting';
    try {
      const connection = await this.childType.connect(this.entry, {
        name: this.name,
        log: this.log,
        onClosed: (reason) => this.#onClosed(connection, reason),
      });
      this.#connection = connection;
      const { client } = connection;
      const server = client.getServerVersion();
      this.title = server?.title ?? this.title;
      this.instructions = client.getInstructions() ?? this.instructions;
      client.setNotificationHandler('notifications/tools/list_changed', async () => {
        await this.refreshTools().catch((error: Error) => this.log.warn({ server: this.name, err: error.message }, 'tool list refresh failed'));
      });
      await this.refreshTools();
      this.status = 'up';
      this.lastError = undefined;
      return client;
    } catch (error) {
      this.status = 'down';
      this.lastError = (error as Error).message;
      throw error;
    }
  }

  #onClosed(connection: ChildConnection | undefined, reason: string): void {
    if (connection !== undefined && connection !== this.#connection) return;
    this.#connection = undefined;
    if (this.status === 'up' || this.status === 'starting') {
      this.status = 'down';
      this.lastError = reason;
      this.log.warn({ server: this.name, reason }, 'child connection closed');
    }
  }

  /** Re-reads the tool list from the child (all pages). */
  async refreshTools(): Promise<void> {
    const client = this.#connection?.client;
    if (!client) return;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.#tools = tools;
  }

  /** Ends the connection; the status says why (`sleeping` for idle, `stopped` at shutdown). */
  async disconnect(status: ChildStatus): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    this.status = status;
    await connection?.close();
  }
}

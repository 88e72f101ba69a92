import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEntry } from '../config/schema.js';
import { Registry } from '../registry.js';
import { Child } from './child.js';
import type { ChildType } from './child-type.js';
import { createInProcessChildType, IN_PROCESS_TYPE } from './in-process.js';

/** The configured servers by name, and the child types that can run them. */
export class ChildRegistry {
  readonly types = new Registry<ChildType>('child type');
  readonly #children = new Map<string, Child>();
  readonly #inProcess: ReturnType<typeof createInProcessChildType>;

  constructor(
    private readonly log: FastifyBaseLogger,
    clientInfo: { name: string; version: string },
  ) {
    this.#inProcess = createInProcessChildType(clientInfo);
    this.types.add(IN_PROCESS_TYPE, this.#inProcess);
  }

  /**
   * Adds a server that lives in this process. `entry` takes the hub's own keys
   * (`hub`, `allowTools`, `denyTools`).
   */
  addInProcess(name: string, factory: McpServerFactory, entry: ServerEntry = {}): Child {
    this.#inProcess.provide(name, factory);
    return this.add(name, { ...entry, type: IN_PROCESS_TYPE });
  }

  /** Adds a validated entry; the caller has checked the name and the type. */
  add(name: string, entry: ServerEntry): Child {
    if (this.#children.has(name)) throw new Error(`server "${name}" is configured twice`);
    const type = entry.type ?? inferType(entry);
    const childType = this.types.get(type);
    if (!childType) throw new Error(`server "${name}": child type "${type}" is not registered`);
    const child = new Child(name, { ...entry, type }, childType, this.log.child({ server: name }));
    this.#children.set(name, child);
    return child;
  }

  get(name: string): Child | undefined {
    return this.#children.get(name);
  }

  all(): Child[] {
    return [...this.#children.values()];
  }

  /** Stops every child, in parallel; one that fails to stop does not keep the others up. */
  async stopAll(): Promise<void> {
    await Promise.allSettled(this.all().map((child) => child.disconnect('stopped')));
  }
}

/** Claude Code's rule: an entry with `command` is stdio, one with `url` is http. */
export function inferType(entry: ServerEntry): string {
  if (entry.type) return entry.type;
  if (entry.command !== undefined) return 'stdio';
  if (entry.url !== undefined) return 'http';
  return 'stdio';
}

import type { CallToolRequestParams, CallToolResult, Client, InputRequiredResult, PriorDiscovery } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { ServerEntry } from '../config/schema.js';
import type { CallCancel } from './client/call-cancel.js';
import { HUB_ERROR_CODES, HubError } from '../errors.js';
import type { ChildWires } from './wires.js';

/** A live MCP connection to one child, as a child type hands it to the kernel. */
export interface ChildConnection {
  client: Client;
  /** Ends the connection and whatever runs behind it (a process, a container). */
  close(): Promise<void>;
  /**
   * A type's cheaper road for the commonest call: no progress, no question for the caller,
   * no output schema to check. Resolves to the child's result, or to undefined when this
   * road is closed for the call (nothing reached the server) and `client` must take it.
   */
  plainToolCall?: PlainToolCall;
  /** The last lines the child wrote on stderr (a `StderrLog`'s `tail`), for a type whose child has one; still readable once the connection ended. */
  stderrTail?(): string[];
}

/**
 * `cancel` says when the call is over before its answer (the caller cancelled, or the hub's
 * timeout fired): the road then stops waiting and rejects, and tells the child where it
 * can, as the SDK does.
 */
export type PlainToolCall = (params: CallToolRequestParams, cancel: CallCancel) => Promise<CallToolResult | InputRequiredResult | undefined>;

export interface ConnectContext {
  name: string;
  log: FastifyBaseLogger;
  /** Called when the connection ends on its own (the process exited, the socket closed). */
  onClosed(reason: string): void;
  /**
   * Aborted when the start ran out of budget or the server was slept or stopped meanwhile:
   * the type ends whatever it began (kills the process, closes the socket).
   */
  signal: AbortSignal;
  /**
   * What an earlier connect to this server negotiated, for `client.connect(transport,
   * { prior })`, so a restart does not ask again. Undefined when none is known (or it went
   * stale); a type whose transport carries one revision only may ignore it.
   */
  prior: PriorDiscovery | undefined;
  /** The revisions the hub speaks to children (`connectClient` negotiates among them). */
  wires: ChildWires;
  /** The folder relative paths in the entry are resolved against (the config file's; the working directory for a config given as a value). */
  configDirectory: string;
  /**
   * Set when the hub asks what the child shows a client of this revision (one of `wires`)
   * while it speaks another with it: the connection must speak exactly this revision
   * (`connectClient` pins it, or refuses when the type's negotiation cannot reach it), and
   * is closed once the child's identity and capabilities are read. A type that ignores it
   * is told apart by the revision its connection negotiated.
   */
  revision?: string;
}

/** An entry of a child type whose `entrySchema` is `Schema`: the common keys, and the type's own as the schema types them. */
export type ChildEntry<Schema extends TSchema = TSchema> = ServerEntry & Static<Schema>;

/**
 * A kind of child: how to reach one (`connect`) and whether it runs all the time.
 * Plugins add types (`stdio`, `docker`, a third party's WebSocket); the kernel only asks
 * these two questions, so it never learns what a process or a container is.
 * `ChildType<typeof EntrySchema>` types every `entry` it is handed from its schema
 * (`Static<>`): the kernel hands a type only entries its `entrySchema` accepted.
 */
export interface ChildType<Schema extends TSchema = TSchema> {
  type: string;
  /** Checks the keys this type needs (`command`, `url`, ...) beyond the common entry. */
  entrySchema: Schema;
  alwaysRunning(entry: ChildEntry<Schema>): boolean;
  /**
   * Whether the tool list is kept on disk so listing works while the server is asleep or
   * unreachable; default true. In-process servers need none.
   */
  snapshots?: boolean;
  /**
   * Whether its connections may probe for a revision found only by probing (`connectClient`
   * with `negotiation: 'auto'`); default true. False keeps the hub from asking such a child
   * what it shows a client of such a revision: nothing is started only to be refused.
   */
  probes?: boolean;
  connect(entry: ChildEntry<Schema>, context: ConnectContext): Promise<ChildConnection>;
  /**
   * `hub check`: whether the entry could start, found without starting anything (the
   * command is on PATH, the image is present, the URL parses), in an operator's words.
   */
  check?(entry: ChildEntry<Schema>, context: EntryCheckContext): Promise<EntryCheck>;
  /**
   * Checks an entry against the other servers of the config (the servers it draws on), at
   * start-up and at every reload: a problem in an operator's words, which refuses the
   * config naming the server, or undefined. `servers` holds every entry the config keeps
   * (disabled ones left out) and the servers plugins provide, by name.
   */
  checkAgainst?(name: string, entry: ChildEntry<Schema>, servers: ReadonlyMap<string, ServerEntry>): string | undefined;
  /**
   * For a type whose servers serve other servers' tools (`virtual`): where a call of
   * `tool` on server `server` goes. The call then runs as that server's call in the
   * pipeline (its filter, tool gates, interceptors, timeout, progress), with the caller's
   * reach checked against `server`. Undefined: the server has no such tool.
   */
  routeTool?(server: string, tool: string): ToolRoute | undefined;
  /**
   * For a routing type: the servers `server` draws every tool of (`*`) whose tools the hub
   * has never seen, so what it lists of them is unknown yet. Its `tools/list` names them
   * in `_meta` (`mcp-switchyard/unknownYet`), and a call of a name it does not route wakes
   * them (within the call's budget) and is routed once they have listed.
   */
  unknownYet?(server: string): readonly string[];
  /**
   * What is wrong with server `server` of this type while it is up, in an operator's words
   * (a virtual server: a server it draws on is down), shown as its `reason` (`list_servers`,
   * `/status`); undefined when nothing is.
   */
  problem?(server: string): string | undefined;
}

/** The server and tool a call of a routing server (`ChildType.routeTool`) goes to. */
export interface ToolRoute {
  server: string;
  tool: string;
}

export interface EntryCheckContext {
  /** Relative paths in the entry are resolved against it. */
  configDirectory: string;
}

/** What `check` found: `detail` says what was looked at, or what is wrong and what to do. */
export interface EntryCheck {
  ok: boolean;
  detail: string;
}

/**
 * A child that ended before its MCP handshake (its command could not run, or it exited
 * at once): trying again right away would end the same way, so the start fails at once
 * with this reason instead of retrying for the whole wake budget.
 */
export class ChildEndedError extends HubError {
  override readonly name = 'ChildEndedError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(HUB_ERROR_CODES.CHILD_ENDED, message, options);
  }
}

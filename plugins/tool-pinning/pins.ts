import type { Tool } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import { definitionDiff, definitionDigest, definitionText, tooLargeToReview } from './definition.js';
import { TOOL_PINNING_ERROR_CODES } from './errors.js';
import { INSTRUCTIONS, instructionsDigest, instructionsKey, instructionsTooLarge, instructionsWithheldReason } from './instructions.js';
import type { ToolPinningOptions } from './options.js';
import { createIndexes, MAX_APPROVED, pinKey, type ChangeRecord, type PinCollections, type PinRecord } from './records.js';
import { HubError, type PluginHub, type ToolGate, type WithheldInstructions } from '../../core/plugin/index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import { DuplicateKeyError } from '../../core/plugin/store.js';

/** A definition an operator approved: which, and what changed from the one approved before. */
export interface Approval {
  server: string;
  /** Empty for the server's instructions (`item`). */
  tool: string;
  item?: 'instructions';
  digest: string;
  diff: string;
}

/** How often an approval that keeps meeting another one of the same tool is tried again before it gives up. */
const APPROVAL_ATTEMPTS = 10;
/** A change's diff in the log is cut here; `hub-admin tools pending` and the approval page show all of it. */
const LOGGED_DIFF_CHARS = 8000;
/** Definitions of one tool remembered as logged; a tool that flips among more is logged again for the oldest. */
const LOGGED_PER_TOOL = 16;

/** What `approve` approves of a server: one tool, its instructions, or everything that waits. */
export type ApprovalTarget = { tool: string } | typeof INSTRUCTIONS | 'all';

/** One pinned item as seen (a tool's definition, or the server's instructions): its change record's identity and text, whole. */
interface Seen extends Pick<ChangeRecord, '_id' | 'server' | 'tool' | 'item' | 'digest' | 'text'> {
  /** Why it cannot be approved, when it is too large to review. */
  tooLarge: string | undefined;
}

/** The instructions of a server an operator approved: their digests, and the text approved last (served while a change waits). */
interface ApprovedInstructions {
  digests: Set<string>;
  text: string;
}

/**
 * The tool gate of tool pinning. The store holds, per server and tool, the digests of the
 * definitions an operator approved (`tool-pins`) and the one definition seen and not
 * approved (`tool-changes`), so that replicas agree. This process keeps the approved
 * digests in memory, so that the check of a listed or called tool is a lookup: a tool of
 * a pinned server is offered when its definition's digest is among its approved ones.
 *
 * Memory can only lag the store by approvals given elsewhere (`hub-admin`, another
 * replica): before the kernel refuses a withheld tool it asks `refresh`, which reads the
 * server's pins again. Each tool list a pinned server reports is reviewed once: a
 * definition not approved is recorded as a change (logged once, with its diff, by the
 * process that records it first, and published for metrics), or approved when it is the
 * first ever seen and `approveFirstSight` is on.
 */
export class ToolPins implements ToolGate {
  readonly #approved = new Map<string, Map<string, Set<string>>>();
  readonly #digests = new WeakMap<Tool, string>();
  #loaded: Promise<void> | undefined;
  /** The review under way for each server, so that a refresh or an approval waits for what it records. */
  readonly #reviews = new Map<string, Promise<void>>();
  /** One store read per server at a time: concurrent callers of a withheld tool share it. */
  readonly #refreshes = new Map<string, Promise<void>>();
  readonly #log: FastifyBaseLogger;
  /** Per tool, the definitions (digests) whose change was logged, with how often each was seen again since. */
  readonly #logged = new Map<string, Map<string, number>>();
  readonly #approvedInstructions = new Map<string, ApprovedInstructions>();
  /** The digest of the instructions each server last stated: asked at every handshake, computed once per text. */
  readonly #instructionsDigests = new Map<string, { text: string; digest: string }>();

  constructor(
    private readonly hub: PluginHub,
    private readonly c: PinCollections,
    private readonly options: ToolPinningOptions,
  ) {
    this.#log = hub.log.child({ plugin: 'tool-pinning' });
  }

  /** Whether the server's tools are pinned: its own `pinTools`, else the plugin's `allServers`. */
  pins(server: Pick<ServerView, 'entry'>): boolean {
    const own = server.entry.pinTools;
    return typeof own === 'boolean' ? own : this.options.allServers;
  }

  withheld(server: ServerView, tool: Tool): string | undefined {
    if (!this.pins(server)) return undefined;
    const approved = this.#approved.get(server.name)?.get(tool.name);
    if (approved?.has(this.#digest(tool))) return undefined;
    return withheldReason(server.name, tool.name, approved !== undefined, `${this.hub.settings.baseUrl}/tool-approvals`);
  }

  instructions(server: ServerView, text: string): WithheldInstructions | undefined {
    if (!this.pins(server)) return undefined;
    const approved = this.#approvedInstructions.get(server.name);
    if (approved?.digests.has(this.#instructionsDigest(server.name, text))) return undefined;
    const command = `hub-admin tools approve ${shellWord(server.name)} --instructions`;
    return { reason: instructionsWithheldReason(server.name, approved !== undefined, command, `${this.hub.settings.baseUrl}/tool-approvals`), ...(approved && { instead: approved.text }) };
  }

  reviewInstructions(server: ServerView, text: string): void {
    if (!this.pins(server)) return;
    this.#queueReview(server, () => this.#reviewInstructions(server, text), 'the review of instructions failed; changed instructions stay withheld');
  }

  refresh(server: ServerView): Promise<void> {
    if (!this.pins(server)) return Promise.resolve();
    let refreshing = this.#refreshes.get(server.name);
    if (!refreshing) {
      refreshing = this.#refresh(server).finally(() => this.#refreshes.delete(server.name));
      this.#refreshes.set(server.name, refreshing);
    }
    return refreshing;
  }

  review(server: ServerView, tools: readonly Tool[]): void {
    if (!this.pins(server)) return;
    this.#queueReview(server, () => this.#review(server, tools), 'the review of a tool list failed; its tools stay withheld');
  }

  /** Runs a review after the server's reviews under way, so that a refresh or an approval waits for what it records. */
  #queueReview(server: ServerView, review: () => Promise<void>, failed: string): void {
    const next = (this.#reviews.get(server.name) ?? Promise.resolve()).then(review).catch((error: unknown) => this.#log.warn({ server: server.name, err: (error as Error).message }, failed));
    this.#reviews.set(server.name, next);
    void next.then(() => {
      if (this.#reviews.get(server.name) === next) this.#reviews.delete(server.name);
    });
  }

  /** Makes the indexes and reads every pin into memory (once; again after a failure). */
  load(): Promise<void> {
    this.#loaded ??= createIndexes(this.c)
      .then(() => this.c.pins.find({}))
      .then(
        (pins) => {
          pins.forEach((pin) => this.#remember(pin));
          // What the servers offered before the approvals were known may read differently now.
          for (const server of this.hub.servers.list()) if (this.pins(server)) server.toolsChanged();
        },
        (error: unknown) => {
          this.#loaded = undefined;
          throw error;
        },
      );
    return this.#loaded;
  }

  /** Resolves once the reviews under way have recorded what they found (before the store closes). */
  async settled(): Promise<void> {
    await Promise.all(this.#reviews.values());
  }

  /**
   * Approves what waits for approval on `server` (one tool, its instructions, or all of
   * them), exactly the definitions recorded (`digest`: only that one, or only those, as the
   * approval page showed them), and tells the server's callers its tool list changed.
   */
  async approve(server: string, target: ApprovalTarget, by: string, digest?: string | ReadonlySet<string>): Promise<Approval[]> {
    await this.load();
    await this.#reviews.get(server);
    const filter = target === 'all' ? { server } : { _id: target === INSTRUCTIONS ? instructionsKey(server) : pinKey(server, target.tool) };
    const changes = await this.c.changes.find(filter, { sort: { tool: 1 } });
    const approved: Approval[] = [];
    for (const change of changes) {
      const shown = digest === undefined || (typeof digest === 'string' ? change.digest === digest : digest.has(change.digest));
      if (!shown || change.tooLarge !== undefined) continue;
      await this.#pin(change, by);
      await this.c.changes.deleteOne({ _id: change._id, digest: change.digest });
      approved.push({ server, tool: change.tool, ...(change.item && { item: change.item }), digest: change.digest, diff: definitionDiff(change.approved, change.text) });
    }
    if (approved.length > 0) {
      const tools = approved.filter((approval) => approval.item === undefined).map((approval) => approval.tool);
      this.#log.info({ server, tools, ...(tools.length < approved.length && { instructions: true }), by }, 'tool definitions approved');
      this.hub.servers.get(server)?.toolsChanged();
    }
    return approved;
  }

  /** What waits for approval (on one server), with the diff of each from its last approved definition. */
  async pending(server?: string): Promise<(ChangeRecord & { diff: string })[]> {
    await this.load();
    if (server !== undefined) await this.#reviews.get(server);
    else await this.settled();
    const changes = await this.c.changes.find(server === undefined ? {} : { server });
    // The instructions (an empty tool) come first of their server's.
    return changes.sort((a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool)).map((change) => ({ ...change, diff: definitionDiff(change.approved, change.text) }));
  }

  /** How many definitions wait for approval, on every server. */
  waiting(): Promise<number> {
    return this.c.changes.countDocuments({});
  }

  /** The approved tools (of one server). */
  async approved(server?: string): Promise<PinRecord[]> {
    const pins = await this.c.pins.find(server === undefined ? {} : { server });
    return pins.sort((a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool));
  }

  async #refresh(server: ServerView): Promise<void> {
    await this.load();
    await this.#reviews.get(server.name);
    const before = this.#count(server.name);
    for (const pin of await this.c.pins.find({ server: server.name })) this.#remember(pin);
    if (this.#count(server.name) !== before) server.toolsChanged();
  }

  async #review(server: ServerView, tools: readonly Tool[]): Promise<void> {
    await this.load();
    let learnt = false;
    for (const tool of tools) {
      const digest = this.#digest(tool);
      if (this.#isApproved(server.name, tool.name, digest)) continue;
      const text = definitionText(tool);
      const seen: Seen = { _id: pinKey(server.name, tool.name), server: server.name, tool: tool.name, digest, text, tooLarge: tooLargeToReview(tool.name, text.length) };
      if (await this.#approveOrRecord(seen, () => this.#isApproved(server.name, tool.name, digest))) learnt = true;
    }
    await this.#settle(server.name, new Map(tools.map((tool) => [tool.name, tool])));
    if (learnt) server.toolsChanged();
  }

  async #reviewInstructions(server: ServerView, text: string): Promise<void> {
    await this.load();
    const digest = this.#instructionsDigest(server.name, text);
    const approved = () => this.#approvedInstructions.get(server.name)?.digests.has(digest) === true;
    if (!approved())
      await this.#approveOrRecord({ _id: instructionsKey(server.name), server: server.name, tool: '', item: INSTRUCTIONS, digest, text, tooLarge: instructionsTooLarge(text.length) }, approved);
    // Instructions back to an approved text wait for nothing any more.
    if (approved()) await this.c.changes.deleteOne({ _id: instructionsKey(server.name) });
  }

  /**
   * An item seen and not approved in memory: approved after all when the store says so
   * (memory lags it by approvals given elsewhere) or on first sight when the options say
   * so, else recorded as a change. True when it turned out approved.
   */
  async #approveOrRecord(seen: Seen, approved: () => boolean): Promise<boolean> {
    let pin = await this.c.pins.findOne({ _id: seen._id });
    if (pin) this.#remember(pin);
    else if (this.options.approveFirstSight && seen.tooLarge === undefined) pin = await this.#pinFirstSight(seen);
    if (approved()) return true;
    await this.#recordChange(seen, pin ?? undefined);
    return false;
  }

  /** Pins an item never approved as it is; when another process pinned it first, that pin stands. */
  async #pinFirstSight(seen: Seen): Promise<PinRecord | null> {
    const { server, tool, item } = seen;
    const pin: PinRecord = { _id: seen._id, server, tool, ...(item && { item }), digests: [seen.digest], text: seen.text, approvedAt: new Date(), approvedBy: 'first sight', version: 1 };
    try {
      await this.c.pins.insertOne(pin);
      this.#remember(pin);
      this.#log.info(item ? { server, item } : { server, tool }, item ? 'instructions approved as first seen' : 'tool approved as first seen');
      return pin;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const stored = await this.c.pins.findOne({ _id: pin._id });
      if (stored) this.#remember(stored);
      return stored;
    }
  }

  /**
   * Records a definition seen and not approved; the process that records it first logs
   * it, with its diff, and publishes it: once per definition, however many replicas and
   * restarts see it.
   */
  async #recordChange(seen: Seen, pin: PinRecord | undefined): Promise<void> {
    const { _id, server, tool, item, digest, tooLarge } = seen;
    const existing = await this.c.changes.findOne({ _id });
    if (existing?.digest === digest) return;
    const text = tooLarge === undefined ? seen.text : `(${tooLarge})`;
    const change: ChangeRecord = { _id, server, tool, ...(item && { item }), digest, text, ...(pin && { approved: pin.text }), ...(tooLarge !== undefined && { tooLarge }), seenAt: new Date() };
    if (existing) {
      const { _id: _key, ...fields } = change;
      const unset = { ...(pin === undefined && { approved: true as const }), ...(tooLarge === undefined && { tooLarge: true as const }) };
      const replaced = await this.c.changes.findOneAndUpdate({ _id, digest: existing.digest }, { $set: fields, ...(Object.keys(unset).length > 0 && { $unset: unset }) });
      if (!replaced) return;
    } else {
      try {
        await this.c.changes.insertOne(change);
      } catch (error) {
        if (error instanceof DuplicateKeyError) return;
        throw error;
      }
    }
    const cause = pin ? 'changed' : 'new';
    const what = item ? { server, item } : { server, tool };
    if (this.hub.observe.toolWithheld.active) this.hub.observe.toolWithheld.publish({ server, tool, cause: item ? `instructions-${cause}` : cause });
    const seenAgain = this.#seenAgain(_id, digest);
    if (seenAgain !== undefined) {
      this.#log.debug({ ...what, cause, seenAgain }, `${item ? 'instructions' : 'tool definition'} seen again, not approved: withheld (logged when first seen)`);
      return;
    }
    const diff = definitionDiff(change.approved, text);
    const message = item
      ? pin
        ? 'server instructions changed since they were approved: the approved ones are served until an operator approves the change'
        : 'new server instructions: not served until an operator approves them'
      : pin
        ? 'tool definition changed since it was approved: withheld until an operator approves it'
        : 'new tool: withheld until an operator approves it';
    this.#log.warn({ ...what, cause, diff: diff.length > LOGGED_DIFF_CHARS ? `${diff.slice(0, LOGGED_DIFF_CHARS)}\n… (hub-admin tools pending shows the rest)` : diff }, message);
  }

  /**
   * A server that keeps flipping a tool between definitions would write a warning with a
   * diff per flip: each distinct definition is logged once, then only counted (how often
   * it was seen again is undefined the first time).
   */
  #seenAgain(key: string, digest: string): number | undefined {
    let logged = this.#logged.get(key);
    if (!logged) this.#logged.set(key, (logged = new Map<string, number>()));
    const count = logged.get(digest);
    if (count !== undefined) {
      logged.set(digest, count + 1);
      return count + 1;
    }
    logged.set(digest, 0);
    if (logged.size > LOGGED_PER_TOOL) logged.delete(logged.keys().next().value as string);
    return undefined;
  }

  /** A recorded change whose tool is gone, or is back to an approved definition, waits for nothing any more. */
  async #settle(server: string, tools: Map<string, Tool>): Promise<void> {
    for (const change of await this.c.changes.find({ server })) {
      if (change.item !== undefined) continue;
      const tool = tools.get(change.tool);
      if (tool && !this.#isApproved(server, change.tool, this.#digest(tool))) continue;
      await this.c.changes.deleteOne({ _id: change._id, digest: change.digest });
    }
  }

  /** Adds the change's digest to the tool's approved ones: a conditional update, tried again when another approval came between. */
  async #pin(change: ChangeRecord, by: string): Promise<void> {
    const approval = { text: change.text, approvedAt: new Date(), approvedBy: by };
    for (let attempt = 0; attempt < APPROVAL_ATTEMPTS; attempt += 1) {
      const pin = await this.c.pins.findOne({ _id: change._id });
      if (!pin) {
        const created: PinRecord = { _id: change._id, server: change.server, tool: change.tool, ...(change.item && { item: change.item }), digests: [change.digest], ...approval, version: 1 };
        try {
          await this.c.pins.insertOne(created);
          this.#remember(created);
          return;
        } catch (error) {
          if (!(error instanceof DuplicateKeyError)) throw error;
          continue;
        }
      }
      const digests = [...pin.digests.filter((digest) => digest !== change.digest), change.digest].slice(-MAX_APPROVED);
      const updated = await this.c.pins.findOneAndUpdate({ _id: pin._id, version: pin.version }, { $set: { digests, ...approval, version: pin.version + 1 } });
      if (updated) {
        this.#remember(updated);
        return;
      }
    }
    throw new HubError(TOOL_PINNING_ERROR_CODES.APPROVAL_CONFLICT, `the approval of tool "${change.tool}" of server "${change.server}" kept meeting other approvals of it; try again`);
  }

  #digest(tool: Tool): string {
    let digest = this.#digests.get(tool);
    if (digest === undefined) {
      digest = definitionDigest(tool);
      this.#digests.set(tool, digest);
    }
    return digest;
  }

  #isApproved(server: string, tool: string, digest: string): boolean {
    return this.#approved.get(server)?.get(tool)?.has(digest) === true;
  }

  #instructionsDigest(server: string, text: string): string {
    const last = this.#instructionsDigests.get(server);
    if (last?.text === text) return last.digest;
    const digest = instructionsDigest(text);
    this.#instructionsDigests.set(server, { text, digest });
    return digest;
  }

  #remember(pin: PinRecord): void {
    if (pin.item === INSTRUCTIONS) {
      const known = this.#approvedInstructions.get(pin.server);
      this.#approvedInstructions.set(pin.server, { digests: new Set([...(known?.digests ?? []), ...pin.digests]), text: pin.text });
      return;
    }
    let tools = this.#approved.get(pin.server);
    if (!tools) this.#approved.set(pin.server, (tools = new Map<string, Set<string>>()));
    let digests = tools.get(pin.tool);
    if (!digests) tools.set(pin.tool, (digests = new Set()));
    for (const digest of pin.digests) digests.add(digest);
  }

  #count(server: string): number {
    let count = 0;
    for (const digests of this.#approved.get(server)?.values() ?? []) count += digests.size;
    return count + (this.#approvedInstructions.get(server)?.digests.size ?? 0);
  }
}

/** What a caller reads about a withheld tool: why, and how an operator makes it available. */
function withheldReason(server: string, tool: string, approvedBefore: boolean, page: string): string {
  const command = `hub-admin tools approve ${shellWord(server)} ${shellWord(tool)}`;
  return approvedBefore
    ? `Tool "${tool}" of server "${server}" is withheld: its definition changed since an operator approved it. An operator can review the change and approve it with \`${command}\` or on ${page}.`
    : `Tool "${tool}" of server "${server}" is withheld: it is new and waits for an operator to approve it with \`${command}\` or on ${page}.`;
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

import { connectInProcess, type ChildConnection, type ConnectContext, type ToolRoute } from '../../core/plugin/child-type.js';
import type { Tool } from '@modelcontextprotocol/server';
import type { PluginHub } from '../../core/plugin/index.js';
import { Catalog } from './catalog.js';
import { drawnServers, unknownYetOf } from './check.js';
import { compose, type Composition } from './compose.js';
import type { VirtualEntry } from './entry.js';
import { virtualServerFactory } from './server.js';
import { errorMessage } from '../../core/plugin/errors.js';

/** A virtual server routes at most this many times through other virtual servers (the config check refuses circles; this bounds a race with a reload). */
const MAX_HOPS = 16;

/**
 * The virtual servers of this hub: each one's composition, made from what the hub knows
 * of the servers it draws on and made again when one of them changes its tools (or is
 * taken out by a reload); the virtual server then reads its list again, so its callers
 * hear of it as of any server's change.
 */
export class VirtualRuntime {
  readonly #kits = new Map<string, { entry: VirtualEntry; draws: Set<string>; composition: Composition | undefined }>();
  /** Problems already said, so that a tool left out is said once, not at every listing. */
  readonly #said = new Set<string>();
  readonly #hub: PluginHub;
  readonly #catalog: Catalog;

  constructor(hub: PluginHub) {
    this.#hub = hub;
    this.#catalog = new Catalog(hub.servers, (message) => this.#problem(message));
  }

  async connect(entry: VirtualEntry, context: ConnectContext): Promise<ChildConnection> {
    if (context.revision !== undefined) {
      // The hub asks what the kit shows a client of another revision: its members' faces for that revision.
      const face = await this.#composeShown(context.name, entry, context.revision);
      return connectInProcess(
        virtualServerFactory(context.name, this.#hub.version, entry, () => face, this.#catalog),
        context,
        { name: 'mcp-hub', version: this.#hub.version },
      );
    }
    this.#kits.set(context.name, { entry, draws: drawnServers(entry), composition: undefined });
    return connectInProcess(
      virtualServerFactory(context.name, this.#hub.version, entry, () => this.composition(context.name), this.#catalog),
      context,
      { name: 'mcp-hub', version: this.#hub.version },
    );
  }

  composition(name: string): Composition {
    const kit = this.#kits.get(name);
    if (!kit) return { tools: [], routes: new Map() };
    kit.composition ??= compose(name, kit.entry, this.#hub.servers, (message) => this.#problem(message));
    return kit.composition;
  }

  /** The kit's tools as a client of `revision` is shown them: each member's tools for that revision (its face, asked if need be). */
  async #composeShown(name: string, entry: VirtualEntry, revision: string): Promise<Composition> {
    const shown = new Map<string, readonly Tool[]>();
    for (const server of drawnServers(entry)) {
      const view = this.#hub.servers.get(server);
      if (view) shown.set(server, await view.toolsShownTo(revision).catch(() => view.tools));
    }
    return compose(
      name,
      entry,
      this.#hub.servers,
      (message) => this.#problem(message),
      (view) => shown.get(view.name) ?? view.tools,
    );
  }

  /** Where a call of a virtual server's tool goes: through other virtual servers to the server that runs it. */
  route(server: string, tool: string): ToolRoute | undefined {
    let route = this.#kits.has(server) ? this.composition(server).routes.get(tool) : undefined;
    for (let hop = 0; route && this.#kits.has(route.server) && hop < MAX_HOPS; hop += 1) route = this.composition(route.server).routes.get(route.tool);
    return route && !this.#kits.has(route.server) ? route : undefined;
  }

  /** The servers a virtual server draws every tool of (`*`) whose tools the hub has never seen. */
  unknownYet(name: string): string[] {
    const kit = this.#kits.get(name);
    return kit ? unknownYetOf(kit.entry, (server) => this.#hub.servers.get(server)?.toolsKnown !== false) : [];
  }

  /** The servers a virtual server draws on that are down (or must be logged in to), said with their own reasons. */
  problem(name: string): string | undefined {
    const kit = this.#kits.get(name);
    if (!kit) return undefined;
    const down = [...kit.draws].flatMap((server) => {
      const view = this.#hub.servers.get(server);
      if (view?.status !== 'down' && view?.status !== 'unauthorized') return [];
      return [`"${server}" is ${view.status}${view.problem === undefined ? '' : ` (${view.problem})`}`];
    });
    return down.length === 0 ? undefined : `draws on servers that are down: ${down.join('; ')}`;
  }

  /** A server's tools may read differently (or it was taken out): the virtual servers drawing on it compose again. */
  changed(server: string): void {
    for (const [name, kit] of this.#kits) {
      if (!kit.draws.has(server)) continue;
      kit.composition = undefined;
      this.#relist(name);
    }
  }

  /** A virtual server came up: it composes afresh (a server it draws on may have changed while it connected). */
  up(name: string): void {
    const kit = this.#kits.get(name);
    if (!kit) return;
    kit.composition = undefined;
    this.#relist(name);
  }

  removed(name: string): void {
    this.#kits.delete(name);
    this.#catalog.forget(name);
    this.changed(name);
  }

  #relist(name: string): void {
    this.#hub.servers
      .get(name)
      ?.refreshTools()
      .catch((error: unknown) => this.#hub.log.warn({ server: name, err: errorMessage(error) }, `virtual server "${name}": could not read its tools again`));
  }

  #problem(message: string): void {
    if (this.#said.has(message)) return;
    this.#said.add(message);
    this.#hub.log.warn(message);
  }
}

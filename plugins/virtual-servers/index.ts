import { Type } from 'typebox';
import { definePlugin } from '../../core/plugin/index.js';
import type { ChildType } from '../../core/plugin/child-type.js';
import { checkAgainst, describeDraws, describeUnknownYet } from './check.js';
import { VIRTUAL_TYPE, VirtualEntry } from './entry.js';
import manifest from './manifest.js';
import type { VirtualRuntime } from './runtime.js';

/**
 * Virtual servers: a curated set of other servers' tools on an endpoint of its own. Built
 * on the published child-type surface only: the kit is an always-running in-process
 * server that lists the composed tools, and `routeTool` turns each call into the
 * underlying server's call in the hub's pipeline. The composition is imported with
 * `runtime.js` only when a virtual server is configured (or a reload adds one).
 */
export default definePlugin({
  ...manifest,
  options: Type.Object({}, { additionalProperties: false }),
  async register(app, _options, hub) {
    let runtime: VirtualRuntime | undefined;
    let loading: Promise<VirtualRuntime> | undefined;
    const loaded = (): Promise<VirtualRuntime> =>
      (loading ??= import('./runtime.js').then(({ VirtualRuntime }) => {
        runtime = new VirtualRuntime(hub);
        return runtime;
      }));
    const type: ChildType = {
      type: VIRTUAL_TYPE,
      entrySchema: VirtualEntry,
      alwaysRunning: () => true,
      // The tools are composed from the other servers' lists (their snapshots included) at every connect.
      snapshots: false,
      probes: false,
      async connect(entry, context) {
        return (await loaded()).connect(entry as VirtualEntry, context);
      },
      check: async (entry) => ({ ok: true, detail: describeDraws(entry) + describeUnknownYet(entry, (server) => hub.servers.get(server)?.toolsKnown !== false) }),
      checkAgainst,
      routeTool: (server, tool) => runtime?.route(server, tool),
      unknownYet: (server) => runtime?.unknownYet(server) ?? [],
      problem: (server) => runtime?.problem(server),
    };
    hub.childTypes.add(type.type, type);
    if (Object.values(hub.config.mcpServers ?? {}).some((entry) => entry.type === VIRTUAL_TYPE && entry.disabled !== true)) await loaded();

    const unobserve = hub.servers.observe({
      toolsChanged: (server) => runtime?.changed(server.name),
      transition: (server, event) => {
        if (server.entry.type === VIRTUAL_TYPE && event.to === 'up') runtime?.up(server.name);
      },
    });
    const unremoved = hub.servers.onRemoved((name) => runtime?.removed(name));
    app.addHook('onClose', async () => {
      unobserve();
      unremoved();
    });
  },
});

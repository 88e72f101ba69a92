import { toolsCommand } from './admin.js';
import { ToolPinningOptions, PinToolsKey } from './options.js';
import { APPROVALS_PATH, registerApprovalPage } from './page.js';
import { ToolPins } from './pins.js';
import { pinCollections } from './records.js';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';

/**
 * Tool pinning: a server that pins its tools (`"pinTools": true`, or every server with
 * `allServers`) offers a tool only in a definition an operator approved. The check is the
 * kernel's tool gate (`hub.toolGates`), so it holds on `/<name>/mcp` and through `/hub`
 * on every revision; the pins are in the store, so replicas agree.
 */
export default definePlugin({
  ...manifest,
  reservedPaths: [APPROVALS_PATH.slice(1)],
  options: ToolPinningOptions,
  serverKeys: { pinTools: PinToolsKey },
  // Read from the entry at each use, so a reload applies a change at once.
  liveServerKeys: ['pinTools'],
  async register(app, options, hub) {
    const c = pinCollections(hub.store);
    const pins = new ToolPins(hub, c, options);
    // Always a gate, whoever adds a server (the config, a plugin, an embedding app): for a
    // server that does not pin, it answers after one look at the entry.
    hub.toolGates.add('tool-pinning', pins);
    hub.adminCommands.add('tools', toolsCommand(pins, hub));
    hub.pages.add('tool-approvals', {
      title: 'Tool approvals',
      path: APPROVALS_PATH,
      // A store that does not answer is itself something to see, not a failed status page.
      async attention() {
        let waiting: number;
        try {
          waiting = await pins.waiting();
        } catch (error) {
          return `cannot tell what waits for approval: ${(error as Error).message}`;
        }
        return waiting === 0 ? undefined : `${waiting === 1 ? '1 tool definition waits' : `${waiting} tool definitions wait`} for approval`;
      },
    });
    await registerApprovalPage(app, hub, pins);
    // A deployment where no server pins opens no store for it (the store is opened on first use).
    app.addHook('onReady', async () => {
      if (hub.servers.list().some((server) => pins.pins(server))) await pins.load();
    });
    app.addHook('onClose', () => pins.settled());
  },
});

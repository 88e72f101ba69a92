import { Type } from 'typebox';
import { searchCommand } from './admin.js';
import { QUERY_FIELD, registerSearchPage, SEARCH_PATH } from './page.js';
import { MAX_QUERY_LENGTH, SearchToolsOutput } from './schemas.js';
import { searchTools } from './search-tools.js';
import { ToolIndex } from './tool-index.js';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';

/**
 * Tool search: `search_tools` on `/hub` (and hub-stdio), a ranked search over the tools
 * of every server the caller could list, sleeping ones from their snapshot; the same
 * search on the operator pages (a box on the status page) and in `hub-admin tools search`.
 */
export default definePlugin({
  ...manifest,
  reservedPaths: [SEARCH_PATH.slice(1)],
  options: Type.Object({}, { additionalProperties: false }),
  publicSchemas: { 'search_tools-output': SearchToolsOutput },
  async register(app, _options, hub) {
    const index = new ToolIndex(hub.servers);
    const unfollow = index.follow();
    const unreloaded = hub.observe.configReload.subscribe((event) => event.outcome === 'applied' && index.markAll());
    app.addHook('onClose', async () => {
      unfollow();
      unreloaded();
    });
    hub.metaTools.add('search_tools', searchTools(hub, index));
    hub.adminCommands.add('tools search', searchCommand(hub, index));
    hub.pages.add('tool-search', { title: 'Tool search', path: SEARCH_PATH, search: { label: 'Search tools', field: QUERY_FIELD, maxLength: MAX_QUERY_LENGTH } });
    await registerSearchPage(app, hub, index);
  },
});

import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'virtual-servers',
  description: 'Adds the virtual child type: a curated set of tools drawn from other servers, renamed and described anew, on an endpoint of its own.',
  enabledByDefault: true,
};

export default manifest;

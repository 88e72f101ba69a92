import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'lifecycle-docker',
  description: 'Adds the docker child type: MCP servers in sandbox containers, started on first use and removed when slept.',
  enabledByDefault: true,
};

export default manifest;

import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'map-tools',
  description: 'Adds the built-in map and routing tool server (eleven OpenStreetMap tools) as an in-process child.',
  // It calls public services: the default only for a hub started without any config.
  enabledByDefault: (_env, { configured }) => !configured,
};

export default manifest;

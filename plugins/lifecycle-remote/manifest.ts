import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'lifecycle-remote',
  description: 'Adds the http, sse, unix and tcp child types: remote servers, connected at start and reconnected with back-off.',
  enabledByDefault: true,
};

export default manifest;

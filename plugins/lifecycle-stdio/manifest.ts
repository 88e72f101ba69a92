import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'lifecycle-stdio',
  description: 'Adds the stdio child type: local processes started on first use and slept when idle.',
  enabledByDefault: true,
};

export default manifest;

import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'output-limit',
  description: "Caps what a tool result may put into a model's context (maxBytes, per server): text cut with a notice, an oversized structured result refused.",
  enabledByDefault: false,
};

export default manifest;

import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'upstream-oauth',
  description: 'Outbound OAuth: the hub as OAuth client of remote servers (static, dynamic or metadata-document clients), with an operator login page.',
  enabledByDefault: true,
};

export default manifest;

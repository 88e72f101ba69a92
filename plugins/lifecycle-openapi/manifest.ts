import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'lifecycle-openapi',
  description: 'Adds the openapi child type: a REST API described by an OpenAPI 3.0 or 3.1 document, one tool per operation.',
  enabledByDefault: true,
};

export default manifest;

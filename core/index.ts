/**
 * The kernel's entry (`mcp-switchyard`): what an app needs to run the hub or embed it in a
 * Fastify app of its own. What a plugin may use is the plugin surface,
 * `mcp-switchyard/plugin`.
 */
export { hub, HubPluginOptions } from './kernel.js';
export { startHub, type StartedHub } from './server.js';
export { hubWellKnown, HubWellKnownOptions } from './http/well-known.js';
export type { PluginHub } from './plugin-hub.js';
export { HubConfig, ServerEntry } from './config/schema.js';
export { HubSettings } from './config/settings.js';
export { definePlugin, type HubPlugin } from './plugin.js';
export { HUB_ERROR_CODES, HubError, hubErrorCode, StartupError, type HubErrorCode } from './errors.js';

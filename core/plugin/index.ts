/**
 * The plugin surface, `mcp-switchyard/plugin`: a plugin, the hub it is handed, errors and
 * command lines, and the union of the role entries (`mcp-switchyard/plugin/<role>`). The
 * built-in plugins import the kernel through these entries only, exactly as a third party
 * imports the package (a test holds them to it); what is not here is the kernel's own.
 */
export { definePlugin, type DefaultContext, type HubPlugin, type PluginManifest } from '../plugin.js';
export type { ClientCallLimits, PluginHub, PluginRegistry, ProvidedService, Servers } from '../plugin-hub.js';
export type { LimitRefusal } from '../limits/client-limits.js';
export { declaredCommand, type AdminCommand, type AdminCommandSummary, type AdminOutput, type StoreOnlyActions } from '../cli/admin-command.js';
export type { ToolGate, WithheldInstructions, WithheldTool } from '../children/tool-gates.js';
export type { HubConfig } from '../config/schema.js';
export type { ConfigFile, ConfigProblem, ConfigProblems, ConfigText, EntrySchemas, EntryTrial } from '../config/config-file.js';
export type { HubSettings } from '../config/settings.js';
export * from './errors.js';
export * from './auth.js';
export * from './child-type.js';
export * from './interceptor.js';
export * from './meta-tool.js';
export * from './observe.js';
export * from './pages.js';
export * from './revision.js';
export * from './store.js';

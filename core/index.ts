export { hub, HubPluginOptions } from './kernel.js';
export { Hub, type McpEra, type MetaTool, type AdminCommand } from './hub.js';
export { definePlugin, type HubPlugin } from './plugin.js';
export { Child, type ChildStatus } from './children/child.js';
export type { ChildType, ChildConnection, ConnectContext } from './children/child-type.js';
export { StartupError } from './errors.js';
export { HubConfig, ServerEntry } from './config/schema.js';
export { startHub } from './server.js';

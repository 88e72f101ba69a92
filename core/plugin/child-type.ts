/**
 * `mcp-switchyard/plugin/child-type`: what a plugin that adds a kind of child needs (how
 * to reach a kind of server: a process, a container, a remote endpoint, a socket).
 */
export { batchedSend } from '../children/batched-send.js';
export type { CallCancel } from '../children/call-cancel.js';
export { ChildEndedError, type ChildConnection, type ChildEntry, type ChildType, type ConnectContext, type EntryCheck, type EntryCheckContext, type PlainToolCall, type ToolRoute } from '../children/child-type.js';
export { connectClient, type ConnectClientOptions } from '../children/connect-client.js';
export { connectInProcess } from '../children/in-process.js';
export { plainRoadOf, type PlainRoad } from '../children/plain-call-client.js';
export { HubStdioTransport } from '../children/stdio-transport.js';
export { PlainReadBuffer } from '../children/plain-read-buffer.js';
export { readMessages } from '../children/read-messages.js';
export { unknownToolProtocolError } from '../mcp/tool-results.js';
export { StderrLog, type StderrLimits, type StderrMemory } from '../children/stderr-log.js';
export { LoginRequiredError, type RemoteTransportAuth, type UpstreamAuth } from '../children/upstream-auth.js';
export type { ChildWires } from '../children/wires.js';
export type { ServerEntry } from '../config/schema.js';

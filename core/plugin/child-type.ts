/**
 * `mcp-switchyard/plugin/child-type`: what a plugin that adds a kind of child needs (how
 * to reach a kind of server: a process, a container, a remote endpoint, a socket).
 */
export { batchedSend, type BatchedSend } from '../children/client/batched-send.js';
export type { CallCancel } from '../children/client/call-cancel.js';
export {
  ChildEndedError,
  type ChildConnection,
  type ChildEntry,
  type ChildType,
  type ConnectContext,
  type EntryCheck,
  type EntryCheckContext,
  type PlainToolCall,
  type ToolRoute,
} from '../children/child-type.js';
export { connectClient, type ConnectClientOptions } from '../children/client/connect-client.js';
export { connectInProcess } from '../children/client/in-process.js';
export { plainRoadOf, type PlainRoad } from '../children/client/plain-call-client.js';
export { HubStdioTransport } from '../children/client/stdio-transport.js';
export { PlainReadBuffer } from '../children/client/plain-read-buffer.js';
export { readMessages } from '../children/client/read-messages.js';
export { unknownToolProtocolError } from '../calls/tool-results.js';
export { StderrLog, type StderrLimits, type StderrMemory } from '../children/stderr-log.js';
export { LoginRequiredError, type RemoteTransportAuth, type UpstreamAuth } from '../children/client/upstream-auth.js';
export type { ChildWires } from '../children/wires.js';
export type { ServerEntry } from '../config/schema.js';

/**
 * `mcp-switchyard/plugin/revision`: what a plugin that speaks an MCP revision needs: the
 * revision contract, both sides of its wire, and the fast road's common test.
 */
export type {
  CallerWire,
  ChildWatching,
  ChildWire,
  HttpRequestView,
  McpRevision,
  PlainCall,
  RelayedQuestion,
  RememberedNegotiation,
  RevisionHandler,
  RevisionServerFactory,
  WireError,
} from '../revisions/revision.js';
export type { ServedRevision } from '../revisions/served-revision.js';
export { isPlainObject, plainParams, toolCallShape, type ToolCallShape } from '../http/plain-call.js';

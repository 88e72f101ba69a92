/**
 * `mcp-switchyard/plugin/interceptor`: what a plugin needs to act on tool calls in flight
 * (`hub.interceptors.add(name, interceptor)`): refuse a call, replace its arguments before
 * it is carried, replace its result after. See docs/plugins.md, "Interceptors".
 */
export type {
  AfterToolCall,
  AfterToolError,
  BeforeToolCall,
  DuringToolCall,
  InterceptedCall,
  InterceptedHubToolCall,
  ToolCallError,
  ToolCallInterceptor,
  ToolCallNotification,
} from '../calls/interceptors.js';
export type { InterceptionDirection, InterceptionEvent } from '../observe.js';
export { toolError } from '../calls/tool-results.js';
export { eachJsonString, mapJsonStrings, mapResultStrings, resultStrings, type ResultStringsOptions } from '../calls/result-strings.js';
export { jsonByteLength } from '../calls/json-bytes.js';

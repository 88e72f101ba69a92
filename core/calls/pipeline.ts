import { fromJsonSchema, isInputRequiredResult, ProtocolError, type CallToolResult, type InputRequiredResult, type JsonSchemaType, type Tool } from '@modelcontextprotocol/server';
import type { Hub } from '../hub.js';
import { withValidTraceContext } from '../observe.js';
import { toolError } from './tool-results.js';
import { carryToolCall, type CallingHub } from './carry.js';
import type { AfterRun } from './interceptors.js';
import { answeredOutcome, observeEnd, observeStart } from './observation.js';
import { isTool, resolvedNow, resolveTool, unreachable } from './resolve.js';
import type { ToolCall } from './tool-call.js';

/**
 * What a tool call needs of the hub, and nothing else of it: the servers (to resolve the
 * tool) and what carrying it needs (`CallingHub`). A test runs a call with these alone.
 */
export type PipelineHub = CallingHub & Pick<Hub, 'children'>;

/**
 * The one pipeline every tool call of a configured server runs, whatever road it came by:
 *
 *   observe start -> resolve + gates -> interceptors before -> carry -> interceptors after -> present -> observe end
 *
 * Undefined when the server has no such tool for callers (unknown, or kept out by its
 * filter: each road words "unknown tool" through `unknownTool`). The child's own protocol
 * error is thrown as it came; a server that cannot start throws its HubError. The call's
 * `outcome` is always set when it returns or throws, observed or not; observers hear every
 * call, refusals included, with that outcome (observation reads the call, never decides it).
 */
export function runToolCall(hub: PipelineHub, call: ToolCall): Promise<CallToolResult | InputRequiredResult | undefined> {
  let refused: CallToolResult | undefined;
  try {
    refused = unreachable(call);
    if (!refused) {
      call.params = withValidTraceContext(call.params);
      observeStart(hub, call);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  if (refused) {
    call.outcome = 'refused';
    return Promise.resolve(refused);
  }
  // The commonest call (a tool found without waiting, no interceptor) without a frame of
  // its own: the carry's promise, with the present and observe-end stages as its handlers.
  const interceptors = hub.interceptors;
  if (!interceptors.before && !interceptors.after && !interceptors.afterError) {
    let tool: Tool | undefined;
    try {
      tool = resolvedNow(call);
    } catch (error) {
      return Promise.reject(failed(call, error));
    }
    if (tool !== undefined) {
      const found = tool;
      call.tool = found;
      let carrying: Promise<CallToolResult | InputRequiredResult>;
      try {
        carrying = carryToolCall(hub, call, found);
      } catch (error) {
        return Promise.reject(failed(call, error));
      }
      return carrying.then(
        (carried) => presented(call, found, carried),
        (error: unknown) => {
          throw failed(call, error);
        },
      );
    }
  }
  return runStages(hub, call);
}

/** The stages after the start, each awaited where it has to be. */
async function runStages(hub: PipelineHub, call: ToolCall): Promise<CallToolResult | InputRequiredResult | undefined> {
  let result: CallToolResult | InputRequiredResult | undefined;
  try {
    // The stages, written out here rather than in functions of their own: every async frame
    // and closure on this path is paid by every call that takes it.
    const resolved = resolvedNow(call) ?? (await resolveTool(call, hub.children));
    if (resolved === undefined || !isTool(resolved)) result = resolved;
    else {
      const tool = resolved;
      call.tool = tool;
      const interceptors = hub.interceptors;
      const before = interceptors.before ? interceptors.runBefore(hub, call, tool) : undefined;
      const refusal = before instanceof Promise ? await before : before;
      if (refusal) {
        call.outcome = 'refused';
        result = refusal;
      } else {
        let carried: CallToolResult | InputRequiredResult;
        try {
          carried = await carryToolCall(hub, call, tool);
        } catch (error) {
          throw interceptors.afterError && ProtocolError.isInstance(error) ? await interceptedError(hub, call, tool, error) : error;
        }
        if (isInputRequiredResult(carried)) result = carried;
        else {
          const after = interceptors.after ? intercepted(hub, call, tool, carried) : carried;
          result = call.revision.presentResult(tool, after instanceof Promise ? await after : after);
        }
      }
    }
  } catch (error) {
    throw failed(call, error);
  }
  return ended(call, result);
}

/** The present stage without interceptors: the carried result for the caller's revision, then the end observed. */
function presented(call: ToolCall, tool: Tool, carried: CallToolResult | InputRequiredResult): CallToolResult | InputRequiredResult | undefined {
  let result: CallToolResult | InputRequiredResult;
  try {
    result = isInputRequiredResult(carried) ? carried : call.revision.presentResult(tool, carried);
  } catch (error) {
    throw failed(call, error);
  }
  return ended(call, result);
}

/** A call that answered (or had no such tool): its outcome, unless a stage set one, and its end observed. */
function ended<R extends CallToolResult | InputRequiredResult | undefined>(call: ToolCall, result: R): R {
  call.outcome ??= result === undefined ? 'unknown_tool' : answeredOutcome(result);
  observeEnd(call, result);
  return result;
}

/** A call that failed: its outcome, unless a stage set one, and its end observed; returns the error to throw. */
function failed(call: ToolCall, error: unknown): unknown {
  call.outcome ??= 'protocol_error';
  observeEnd(call, undefined, error);
  return error;
}

/** A child's error after the interceptors: the same error when none replaced its words. */
async function interceptedError(hub: CallingHub, call: ToolCall, tool: Tool, error: ProtocolError): Promise<ProtocolError> {
  const { code, message, data } = error;
  const after = await hub.interceptors.runAfterError(hub, call, tool, { code, message, ...(data !== undefined && { data }) });
  return after.message === message && after.data === data ? error : new ProtocolError(code, after.message, after.data);
}

/**
 * The result after the interceptors, at once when they answered at once; one an
 * interceptor made that no longer matches the tool's output schema is a tool error.
 */
function intercepted(hub: CallingHub, call: ToolCall, tool: Tool, carried: CallToolResult): CallToolResult | Promise<CallToolResult> {
  const run = hub.interceptors.runAfter(hub, call, tool, carried);
  return run instanceof Promise ? run.then((settled) => checkedAfterRun(tool, settled)) : checkedAfterRun(tool, run);
}

function checkedAfterRun(tool: Tool, { result, replacedBy }: AfterRun): CallToolResult | Promise<CallToolResult> {
  if (replacedBy === undefined || tool.outputSchema === undefined || result.isError === true) return result;
  return matchesOutputSchema(tool.outputSchema, result.structuredContent).then((matches) =>
    matches ? result : toolError(`Tool call failed: plugin "${replacedBy}" replaced the result with one that does not match the tool's output schema`),
  );
}

/**
 * Whether `structured` is what the schema declares, checked by the SDK's own JSON Schema
 * validator. Compiled per check: only a result an interceptor replaced is checked, rarely
 * enough that keeping compiled schemas would cost more than it saves.
 */
async function matchesOutputSchema(schema: NonNullable<Tool['outputSchema']>, structured: unknown): Promise<boolean> {
  if (structured === undefined) return false;
  const checked = await fromJsonSchema(schema as JsonSchemaType)['~standard'].validate(structured);
  return checked.issues === undefined;
}

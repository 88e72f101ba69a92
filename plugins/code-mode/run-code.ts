import { CLIENT_CAPABILITIES_META_KEY, type CallToolResult, ProtocolError } from '@modelcontextprotocol/server';
import { didYouMean, listed } from './close-matches.js';
import type { CodeModeOptions } from './options.js';
import type { SandboxPool } from './pool.js';
import { compileProgram } from './program.js';
import type { ToolAnswer } from './run-protocol.js';
import { RunCodeInput, RunCodeOutput, type CallRecord } from './schemas.js';
import { RunSlots } from './slots.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { type CallerRequest, type MetaTool, type MetaToolContext, isUnknownTarget, offeredOnHub, structured, toolError, unknownServerMessage } from '../../core/plugin/meta-tool.js';
import { traceContextOf } from '../../core/plugin/observe.js';

/**
 * `run_code`: runs a program in a sandbox worker of `pool`; its tool calls are the
 * caller's own calls through `hub.servers.callTool` on the hub's thread, as `call_tool`
 * makes them.
 */
export function runCode(hub: PluginHub, options: CodeModeOptions, pool: SandboxPool): MetaTool {
  const slots = new RunSlots(options.maxConcurrentRuns, options.maxConcurrentRunsPerClient);
  const limits = {
    memoryBytes: options.memoryMb * 1024 * 1024,
    stackBytes: options.maxStackKb * 1024,
    timeoutMs: options.timeoutMs,
    maxToolCalls: options.maxToolCalls,
    maxOutputBytes: options.maxOutputBytes,
    maxResultBytes: options.maxResultBytes,
  };
  return {
    name: 'run_code',
    interceptedResult: true,
    description:
      'Runs a short TypeScript or JavaScript program (the body of an async function) that calls tools as `await servers.<server>.<tool>(args)` (see get_code_api), filters and joins their results, and returns what it printed, its returned value and the calls it made. Use it for several calls whose intermediate results you do not need to see.',
    inputSchema: RunCodeInput,
    outputSchema: RunCodeOutput,
    annotations: { title: 'Run code', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async call(args, context) {
      const compiled = compileProgram((args as RunCodeInput).code);
      if (!compiled.ok) return toolError(`The program did not run: ${compiled.error}`);
      const client = context.request.clientId ?? '';
      const refused = slots.take(client);
      if (refused !== undefined) return toolError(refused);
      try {
        const calls: CallRecord[] = [];
        const call = async (server: string, tool: string, toolArguments: Record<string, unknown> | undefined, signal: AbortSignal): Promise<ToolAnswer> => {
          const record: CallRecord = { server, tool, outcome: 'cancelled', durationMs: 0 };
          calls.push(record);
          const started = performance.now();
          try {
            const value = await callForProgram(hub, context, server, tool, toolArguments, signal);
            if ('error' in value) {
              record.outcome = value.outcome;
              return { error: value.error };
            }
            record.outcome = 'ok';
            return { json: JSON.stringify(value.value ?? null) };
          } finally {
            record.durationMs = Math.round((performance.now() - started) * 10) / 10;
            if (signal.aborted && record.outcome !== 'ok') record.outcome = 'cancelled';
          }
        };
        const names = hub.servers
          .list()
          .filter((child) => offeredOnHub(child, context.request))
          .map((child) => child.name);
        const outcome = await pool.run({ code: compiled.code, limits, serverNames: names, call, cancel: context.request.signal });
        markAccess(context.request, calls);
        if (!outcome.ok) {
          const printed = outcome.output === '' ? '' : `\nPrinted before it ended:\n${outcome.output}`;
          return toolError(`The program failed: ${outcome.error}${printed}`);
        }
        return structured({ output: outcome.output, ...(outcome.hasValue && { value: outcome.value }), calls, ...(outcome.note !== undefined && { note: outcome.note }) } satisfies RunCodeOutput);
      } finally {
        slots.release(client);
      }
    },
  };
}

type ProgramCall = { value: unknown } | { error: string; outcome: CallRecord['outcome'] };

/**
 * One call a program makes, as the caller's own call: `hub.servers.callTool` with the
 * caller's revision and reach, on a request of its own (see `programRequest`). The value
 * is the tool's structured result where it declares an output schema, else its text.
 */
async function callForProgram(hub: PluginHub, context: MetaToolContext, server: string, tool: string, toolArguments: Record<string, unknown> | undefined, signal: AbortSignal): Promise<ProgramCall> {
  const child = hub.servers.get(server);
  if (!child || !offeredOnHub(child, context.request)) return { error: unknownServerMessage(server), outcome: 'error' };
  // The caller's own limits, as if it made the call itself: a client whose programs call
  // tools counts each call against CLIENT_CALLS_PER_MINUTE and CLIENT_MAX_CONCURRENT (the
  // run_code request holding one slot of the latter all along). An open hub limits no one.
  const client = context.request.clientId;
  const admitted = client === undefined ? undefined : await hub.clientLimits.admit(client);
  if (admitted !== undefined && typeof admitted !== 'function') return { error: `${server}.${tool} was refused: ${admitted.message}`, outcome: 'limit' };
  if (signal.aborted) {
    admitted?.();
    return { error: `${server}.${tool} was cancelled: the run ended.`, outcome: 'cancelled' };
  }
  const trace = traceContextOf(context.request.meta);
  const params = { name: tool, ...(toolArguments !== undefined && { arguments: toolArguments }), ...(trace && { _meta: trace }) };
  let result: Awaited<ReturnType<typeof hub.servers.callTool>>;
  try {
    result = await hub.servers.callTool(child, params, { revision: context.revision, request: programRequest(context.request, signal) });
  } catch (error) {
    if (ProtocolError.isInstance(error)) return { error: `${server}.${tool} failed: the server answered with error ${error.code}: ${error.message}`, outcome: 'error' };
    return { error: `${server}.${tool} failed: ${(error as Error).message}`, outcome: 'error' };
  } finally {
    admitted?.();
  }
  if (isUnknownTarget(result)) {
    const names = child.tools.map((known) => known.name);
    return { error: `${result.message}${didYouMean(tool, names)} Its tools: ${listed(names)}.`, outcome: 'error' };
  }
  if (!isToolResult(result)) return { error: `${server}.${tool} asked a question, which a program cannot answer: call it with call_tool.`, outcome: 'error' };
  const text = textOf(result);
  if (result.isError === true) return { error: text, outcome: 'tool_error' };
  const declared = child.findTool(tool)?.outputSchema !== undefined;
  return { value: declared && result.structuredContent !== undefined ? result.structuredContent : text };
}

function isToolResult(result: object): result is CallToolResult {
  return 'content' in result && Array.isArray(result.content);
}

function textOf(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/**
 * The request a program's call is made on: the caller's (its identity, reach, revision
 * envelope and trace context), cancelled when the run ends, with no progress token (the
 * calls of one run would interleave their progress), no question relayed (the program
 * could not answer it: the child takes its fallback, as for a caller without elicitation),
 * and no access record of its own: the run's record names run_code, and the calls are
 * added to it as `codeModeCalls` once the run ends (`markAccess`).
 */
function programRequest(caller: CallerRequest, signal: AbortSignal): CallerRequest {
  const envelope = { ...caller.envelope };
  delete envelope[CLIENT_CAPABILITIES_META_KEY];
  const trace = traceContextOf(caller.meta);
  return {
    meta: trace,
    envelope,
    signal,
    notify: async () => undefined,
    answers: undefined,
    clientId: caller.clientId,
    access: undefined,
    servers: caller.servers,
  };
}

function markAccess(caller: CallerRequest, calls: readonly CallRecord[]): void {
  const access = caller.access;
  if (!access) return;
  access.fields = { ...access.fields, codeModeCalls: calls.map(({ server, tool, outcome }) => `${server}.${tool}:${outcome}`) };
}

import type { ToolCallOutcome } from '../../core/plugin/observe.js';

/**
 * OpenTelemetry's `error.type` of a tool call: none when it succeeded; the JSON-RPC error
 * code when the server answered with one (codes outside JSON-RPC's reserved range are
 * `_OTHER`, so a server cannot grow a label without end); otherwise the outcome, a fixed
 * word (`tool_error` is the convention's own value for a result with `isError`).
 */
export function errorType(outcome: ToolCallOutcome, code: number | string | undefined): string | undefined {
  if (outcome === 'ok') return undefined;
  if (outcome !== 'protocol_error') return outcome;
  return typeof code === 'number' && Number.isInteger(code) && code >= -32768 && code <= -32000 ? String(code) : '_OTHER';
}

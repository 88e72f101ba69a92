/**
 * What passes between the hub's thread (pool.ts) and a sandbox worker (worker.ts): plain
 * values that the structured clone carries, and the texts of the limits both sides name.
 */

/** The bounds of one run; each is a plugin option (see options.ts). */
export interface SandboxLimits {
  memoryBytes: number;
  stackBytes: number;
  timeoutMs: number;
  maxToolCalls: number;
  maxOutputBytes: number;
  maxResultBytes: number;
}

/** How a program's tool call ended: the JSON text of its value, or the text its promise rejects with. */
export type ToolAnswer = { json: string } | { error: string };

export type RunOutcome = { ok: true; output: string; value: unknown; hasValue: boolean; note?: string } | { ok: false; output: string; error: string };

/** The hub's thread to a worker: run a program; the answer to one of its tool calls. */
export type ToWorker = { type: 'run'; run: number; code: string; limits: SandboxLimits; serverNames: readonly string[] } | { type: 'answer'; run: number; call: number; answer: ToolAnswer };

/** A worker to the hub's thread: a line printed, a tool call, the run's end. */
export type FromWorker =
  | { type: 'print'; run: number; line: string }
  | { type: 'call'; run: number; call: number; server: string; tool: string; args: Record<string, unknown> | undefined }
  | { type: 'done'; run: number; outcome: RunOutcome };

export function memoryError(limits: SandboxLimits): string {
  return `The program used more memory than the limit (memoryMb: ${limits.memoryBytes / (1024 * 1024)} MB).`;
}

export function stackError(limits: SandboxLimits): string {
  return `The program recursed deeper than the stack limit (maxStackKb: ${limits.stackBytes / 1024} KB).`;
}

export function timeoutError(limits: SandboxLimits): string {
  return `The program ran longer than the time limit (timeoutMs: ${limits.timeoutMs} ms) and was stopped.`;
}

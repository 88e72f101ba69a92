import { Type, type Static } from 'typebox';

/** The limits of code mode, each a bound on something a caller's program can grow. */
export const CodeModeOptions = Type.Object(
  {
    memoryMb: Type.Integer({ minimum: 1, maximum: 1024, default: 64, description: "The sandbox's heap for one run, in MB (its worker's JavaScript heap may hold as much besides 16 MB of its own)." }),
    timeoutMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 30_000, description: 'How long one run may take, tool calls included; its worker thread is terminated when it is over.' }),
    maxToolCalls: Type.Integer({ minimum: 0, maximum: 10_000, default: 50, description: 'Tool calls one run may make.' }),
    maxConcurrentRuns: Type.Integer({ minimum: 1, maximum: 256, default: 8, description: 'Runs at once, for all callers.' }),
    maxConcurrentRunsPerClient: Type.Integer({ minimum: 1, maximum: 256, default: 2, description: 'Runs at once for one caller (client id; every open-hub caller counts as one).' }),
    maxOutputBytes: Type.Integer({ minimum: 0, maximum: 16 * 1024 * 1024, default: 64 * 1024, description: 'What a run may print (console), in bytes of UTF-8.' }),
    maxResultBytes: Type.Integer({ minimum: 0, maximum: 16 * 1024 * 1024, default: 256 * 1024, description: 'The returned value, as JSON, in bytes of UTF-8.' }),
    maxStackKb: Type.Integer({ minimum: 64, maximum: 4096, default: 512, description: "The interpreter's stack for one run, in KB: how deep a program may recurse." }),
  },
  { additionalProperties: false },
);
export type CodeModeOptions = Static<typeof CodeModeOptions>;

/** The largest program `run_code` takes, in characters (the 64 KB). */
export const MAX_CODE_LENGTH = 64 * 1024;

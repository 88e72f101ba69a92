import { Type, type Static } from 'typebox';
import { MAX_CODE_LENGTH } from './options.js';

export const CodeApiInput = Type.Object(
  {
    servers: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 256, description: 'Only these servers (default: every server you can reach).' })),
    tools: Type.Optional(Type.Array(Type.String({ maxLength: 512 }), { maxItems: 256, description: 'Only these tools, each as "server/tool" (with servers: those servers\' tools and these).' })),
  },
  { additionalProperties: false },
);
export type CodeApiInput = Static<typeof CodeApiInput>;

export const RunCodeInput = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: MAX_CODE_LENGTH,
      description: 'TypeScript or JavaScript: the body of an async function (it may await and return). Call tools as servers.<server>.<tool>(args).',
    }),
  },
  { additionalProperties: false },
);
export type RunCodeInput = Static<typeof RunCodeInput>;

export const CallRecord = Type.Object(
  {
    server: Type.String(),
    tool: Type.String(),
    outcome: Type.Union([Type.Literal('ok'), Type.Literal('tool_error'), Type.Literal('error'), Type.Literal('limit'), Type.Literal('cancelled')]),
    durationMs: Type.Number(),
  },
  { additionalProperties: false },
);
export type CallRecord = Static<typeof CallRecord>;

export const RunCodeOutput = Type.Object(
  {
    output: Type.String({ description: 'What the program printed (console.log and friends).' }),
    value: Type.Optional(Type.Unknown({ description: 'What the program returned, when it returned a JSON value.' })),
    calls: Type.Array(CallRecord, { description: 'Every tool call the program made, in the order made, with how it ended.' }),
    note: Type.Optional(Type.String({ description: 'What the program may not have meant: a returned value that is not JSON (a function, a symbol) was dropped.' })),
  },
  { additionalProperties: false },
);
export type RunCodeOutput = Static<typeof RunCodeOutput>;

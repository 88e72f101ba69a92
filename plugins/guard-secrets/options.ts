import { Type, type Static } from 'typebox';

const Mode = Type.Union([Type.Literal('redact'), Type.Literal('block')], {
  description: '"redact": a secret becomes [REDACTED:<kind>] and the call goes on; "block": the call (or its result) is refused, naming the kind.',
});
const Directions = Type.Array(Type.Union([Type.Literal('arguments'), Type.Literal('result')]), {
  uniqueItems: true,
  description: 'What is scanned: the arguments a caller sends, the result a server returns, or both.',
});

export const GuardSecretsOptions = Type.Object(
  {
    mode: Type.Optional(Mode),
    directions: Type.Optional(Directions),
  },
  { additionalProperties: false },
);
export type GuardSecretsOptions = Static<typeof GuardSecretsOptions>;

/** The server key: `false` scans nothing of this server; an object overrides the plugin's `mode` or `directions` for it. */
export const GuardSecretsKey = Type.Union([Type.Boolean(), Type.Object({ mode: Type.Optional(Mode), directions: Type.Optional(Directions) }, { additionalProperties: false })], {
  description: 'Per-server setting of the guard-secrets plugin: false scans nothing of this server; { mode, directions } overrides the plugin options.',
});
export type GuardSecretsKey = Static<typeof GuardSecretsKey>;

export type Direction = 'arguments' | 'result';

/** The settings in force for one server. */
export interface GuardPolicy {
  mode: 'redact' | 'block';
  directions: ReadonlySet<Direction>;
}

/** The plugin's options, with one server's `guardSecrets` applied; undefined when the server opts out. */
export function policyFor(options: GuardSecretsOptions, key: unknown): GuardPolicy | undefined {
  if (key === false) return undefined;
  const own = typeof key === 'object' && key !== null ? (key as Exclude<GuardSecretsKey, boolean>) : {};
  return {
    mode: own.mode ?? options.mode ?? 'redact',
    directions: new Set(own.directions ?? options.directions ?? ['arguments', 'result']),
  };
}

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

/**
 * The plugin's options, with one server's `guardSecrets` applied; undefined when the server
 * opts out. Each policy is made once per server key (an entry's key is a new object after a
 * reload that changed it): this is read on every call, twice.
 */
export function policies(options: GuardSecretsOptions): (key: unknown) => GuardPolicy | undefined {
  const make = (own: Exclude<GuardSecretsKey, boolean>): GuardPolicy => ({
    mode: own.mode ?? options.mode ?? 'redact',
    directions: new Set(own.directions ?? options.directions ?? ['arguments', 'result']),
  });
  const plain = make({});
  const made = new WeakMap<object, GuardPolicy>();
  return (key) => {
    if (key === false) return undefined;
    if (typeof key !== 'object' || key === null) return plain;
    let policy = made.get(key);
    if (!policy) made.set(key, (policy = make(key)));
    return policy;
  };
}

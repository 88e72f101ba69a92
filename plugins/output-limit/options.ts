import { Type, type Static } from 'typebox';

const MaxBytes = Type.Integer({ minimum: 1024, description: 'The most bytes a result may carry (UTF-8 text, base64 data of images, audio and blobs, structuredContent as JSON).' });

export const OutputLimitOptions = Type.Object(
  {
    maxBytes: Type.Integer({
      minimum: 1024,
      default: 100_000,
      description: "The most bytes a tool result may carry into the caller (and so a model's context), unless the server entry says otherwise.",
    }),
  },
  { additionalProperties: false },
);
export type OutputLimitOptions = Static<typeof OutputLimitOptions>;

/** The server key: `false` sets no limit for this server; `{ maxBytes }` its own. */
export const OutputLimitKey = Type.Union([Type.Literal(false), Type.Object({ maxBytes: MaxBytes }, { additionalProperties: false })], {
  description: 'Per-server setting of the output-limit plugin: false sets no limit; { maxBytes } replaces the plugin default for this server.',
});

/** The cap for one server, or undefined when it has none. */
export function maxBytesFor(options: OutputLimitOptions, key: unknown): number | undefined {
  if (key === false) return undefined;
  const own = typeof key === 'object' && key !== null ? (key as { maxBytes?: number }).maxBytes : undefined;
  return own ?? options.maxBytes;
}

import { Type, type Static } from 'typebox';

/** The keys of an `openapi` server entry, beside the hub's own (`allowTools`, `hub`, ...). */
export const OpenApiEntry = Type.Object(
  {
    spec: Type.String({ minLength: 1, description: 'The OpenAPI 3.0 or 3.1 document: a file (JSON or YAML, relative to the config file) or an https URL.' }),
    baseUrl: Type.Optional(Type.String({ minLength: 1, description: "Where the API is called; default the document's first server." })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Sent on every call to the API (credentials); ${VAR} expands.' })),
    operations: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'Only these operations become tools: an operationId or "METHOD /path".' })),
    arguments: Type.Optional(
      Type.Union([Type.Literal('flat'), Type.Literal('grouped')], {
        description: 'The tools\' input: "flat" (default) takes parameters and body properties as one object; "grouped" takes them under path, query, headers, cookies and body.',
      }),
    ),
  },
  { additionalProperties: true },
);
export type OpenApiEntry = Static<typeof OpenApiEntry>;

export const LifecycleOpenApiOptions = Type.Object(
  {
    allowLoopbackSpecUrls: Type.Boolean({
      default: false,
      description: 'Development switch: a spec URL may name a loopback address, over plain http too. Off, spec URLs are https to public addresses only.',
    }),
    maxSpecBytes: Type.Integer({ minimum: 1024, default: 10 * 1024 * 1024, description: 'A larger document (or referenced document) is refused.' }),
    specTimeoutMs: Type.Integer({ minimum: 100, default: 15_000, description: 'A spec URL must be fetched whole within this.' }),
    maxOperations: Type.Integer({ minimum: 1, default: 100, description: 'More operations than this are refused unless `operations` or `allowTools` narrows them.' }),
    requestTimeoutMs: Type.Integer({ minimum: 100, default: 30_000, description: 'A call to the API must be answered whole within this.' }),
    maxAnswerBytes: Type.Integer({ minimum: 1024, default: 10 * 1024 * 1024, description: 'A larger answer from the API is a tool error.' }),
    maxTextBytes: Type.Integer({ minimum: 256, default: 100 * 1024, description: 'A text (non-JSON) answer is cut to this many bytes.' }),
  },
  { additionalProperties: false },
);
export type LifecycleOpenApiOptions = Static<typeof LifecycleOpenApiOptions>;

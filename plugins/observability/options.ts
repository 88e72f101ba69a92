import { Type, type Static } from 'typebox';

export const ObservabilityOptions = Type.Object(
  {
    metrics: Type.Boolean({ default: true, description: 'Serve GET /metrics (Prometheus text format).' }),
    callLog: Type.Boolean({
      default: true,
      description:
        "Say how each tool call ended (outcome, error code) on its request's access record; a call without one (hub-stdio) gets a line of its own (server, tool, caller, revision, duration, outcome).",
    }),
    callLogPayloads: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      maxItems: 1000,
      description: "Servers whose calls also get a call log line with the call's arguments and result. Off for every server unless named here: arguments and results can hold personal data.",
    }),
    statusPage: Type.Boolean({ default: true, description: 'Serve the operator status page at /status, behind the hub password.' }),
    statusRefreshSeconds: Type.Integer({ default: 15, minimum: 5, maximum: 3600, description: "How often the console's overview reads /status.json again." }),
  },
  { additionalProperties: false },
);
export type ObservabilityOptions = Static<typeof ObservabilityOptions>;

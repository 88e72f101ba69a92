import { Type, type Static } from 'typebox';

export const DescribeConnectionInput = Type.Object(
  { server: Type.Optional(Type.String({ minLength: 1, description: 'A server name from list_servers; without it the answer covers only this connection' })) },
  { additionalProperties: false },
);
export type DescribeConnectionInput = Static<typeof DescribeConnectionInput>;

/** The connection report (spec 2.5). */
export const ConnectionReport = Type.Object(
  {
    era: Type.Enum(['modern', 'legacy'], { description: '`legacy` for revision 2025-11-25' }),
    revision: Type.String({ description: 'The MCP revision this request is on' }),
    hubVersion: Type.String(),
    caller: Type.Object({
      declaresElicitation: Type.Boolean({ description: 'Whether this request carried an elicitation capability' }),
      servers: Type.Optional(Type.Array(Type.String(), { description: "The only servers this caller's credentials reach through /hub (an API token minted with --servers); absent: every server" })),
    }),
    elicitation: Type.Object({
      wouldForward: Type.Optional(Type.Boolean({ description: "Whether the named server's question would reach this caller; absent when no server was named" })),
      reason: Type.String(),
    }),
  },
  { additionalProperties: false },
);
export type ConnectionReport = Static<typeof ConnectionReport>;

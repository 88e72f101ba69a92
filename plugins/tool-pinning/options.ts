import { Type, type Static } from 'typebox';

export const ToolPinningOptions = Type.Object(
  {
    allServers: Type.Boolean({ default: false, description: 'Pin the tools of every server; one opts out with "pinTools": false.' }),
    approveFirstSight: Type.Boolean({
      default: false,
      description: 'A tool never approved is approved as it is first seen, so that only later changes wait for an operator. Off: new tools wait too.',
    }),
  },
  { additionalProperties: false },
);
export type ToolPinningOptions = Static<typeof ToolPinningOptions>;

/** The server key: `true` pins the server's tools, `false` keeps them unpinned under `allServers`. */
export const PinToolsKey = Type.Boolean({ description: 'Withhold a tool whose definition changed (or a new one) until an operator approves it (tool-pinning plugin).' });

import { ConnectionReport, DescribeConnectionInput } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { callerCapabilities, decideElicitation, mayReach, type MetaTool, structured, toolError, unknownServerMessage } from '../../core/plugin/meta-tool.js';

/**
 * Reports what this connection negotiated and whether a child's question would reach the
 * caller, by the same decision `call_tool` takes, and which servers the caller's
 * credentials reach when they are limited to some. It reads state only: a sleeping
 * server stays asleep, and the reason says it has negotiated no revision.
 */
export function describeConnection(hub: PluginHub): MetaTool {
  return {
    name: 'describe_connection',
    description:
      "Diagnostics: reports this connection's MCP revision, the hub version, whether this request declared elicitation, the servers this caller's token is limited to (if it is), and, for a named server, whether that server's questions would be forwarded here and why. Never wakes a server.",
    inputSchema: DescribeConnectionInput,
    outputSchema: ConnectionReport,
    annotations: { title: 'Describe connection', readOnlyHint: true, openWorldHint: false },
    async call(args, { revision, request, sessionCapabilities }) {
      const { server } = args as DescribeConnectionInput;
      const child = server === undefined || !mayReach(request, server) ? undefined : hub.servers.get(server);
      if (server !== undefined && !child) return toolError(`${unknownServerMessage(server)} Call list_servers to see the configured servers.`);
      const capabilities = callerCapabilities(request, sessionCapabilities);
      const decision = decideElicitation(revision, capabilities, child);
      const report: ConnectionReport = {
        era: revision.era,
        revision: revision.revision,
        hubVersion: hub.version,
        caller: { declaresElicitation: capabilities?.elicitation !== undefined, ...(request.servers !== undefined && { servers: [...request.servers] }) },
        elicitation: { ...(child && { wouldForward: decision.forward }), reason: decision.reason },
      };
      return structured(report);
    },
  };
}

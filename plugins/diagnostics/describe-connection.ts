import { ConnectionReport, DescribeConnectionInput } from './schemas.js';
import { callerCapabilities, decideElicitation, type Hub, type MetaTool, structured, toolError } from '../../core/plugin-api.js';

/**
 * Reports what this connection negotiated and whether a child's question would reach the
 * caller, by the same decision `call_tool` takes. It reads state only: a sleeping server
 * stays asleep, and the reason says it has negotiated no era.
 */
export function describeConnection(hub: Hub): MetaTool {
  return {
    name: 'describe_connection',
    description:
      "Diagnostics: reports this connection's MCP revision, the hub version, whether this request declared elicitation and, for a named server, whether that server's questions would be forwarded here and why. Never wakes a server.",
    inputSchema: DescribeConnectionInput,
    outputSchema: ConnectionReport,
    annotations: { title: 'Describe connection', readOnlyHint: true, openWorldHint: false },
    async call(args, { era, request, sessionCapabilities }) {
      const { server } = args as DescribeConnectionInput;
      const child = server === undefined ? undefined : hub.children.get(server);
      if (server !== undefined && !child) return toolError(`Unknown server: ${server}. Call list_servers to see the configured servers.`);
      const capabilities = callerCapabilities(request, sessionCapabilities);
      const decision = decideElicitation(era, capabilities, child);
      const report: ConnectionReport = {
        era: era.era,
        revision: era.revision,
        hubVersion: hub.version,
        caller: { declaresElicitation: capabilities?.elicitation !== undefined },
        elicitation: { ...(child && { wouldForward: decision.forward }), reason: decision.reason },
      };
      return structured(report);
    },
  };
}

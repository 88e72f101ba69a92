// The six metric updates a tool call makes (issue 57), in this process: prom-client's own
// Counter and Histogram against the observability plugin's cells (series-cells.ts), with
// the labels the hub gives them (a tool call's labels made once, the request's made per
// call, as metrics.ts does), interleaved round by round. CPU per call, lowest round first.
// Run: npm run build && node dist/bench/metric-updates.js [rounds] [calls per round]
import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS } from '../plugins/observability/metrics.js';
import { CellCounter, CellHistogram } from '../plugins/observability/series-cells.js';

const rounds = Number(process.argv[2] ?? '4');
const calls = Number(process.argv[3] ?? '300000');

interface Updates {
  inc(labels: Record<string, string>, by?: number): void;
}
interface Observations {
  observe(labels: Record<string, string>, value: number): void;
}

/** The six metrics of a call, each made by `counter` or `histogram`, with the hub's label names. */
function metrics(counter: (name: string, labelNames: string[]) => Updates, histogram: (name: string, labelNames: string[]) => Observations) {
  return {
    toolCalls: counter('calls', ['server', 'tool', 'outcome', 'virtual_server']),
    toolDuration: histogram('durations', ['server', 'tool', 'outcome', 'virtual_server']),
    clientOperations: histogram('client', ['server', 'mcp_method_name', 'mcp_protocol_version', 'gen_ai_tool_name', 'error_type', 'network_transport']),
    mcpRequests: counter('requests', ['endpoint', 'method', 'revision', 'status']),
    serverOperations: histogram('server', ['mcp_method_name', 'mcp_protocol_version', 'gen_ai_tool_name', 'error_type']),
    httpRequests: counter('http', ['route', 'status']),
  };
}

const promClient = new Registry();
const cells = new Registry();
const subjects = {
  'prom-client': metrics(
    (name, labelNames) => new Counter({ name, help: name, labelNames, registers: [promClient] }),
    (name, labelNames) => new Histogram({ name, help: name, labelNames, buckets: [...DURATION_BUCKETS], registers: [promClient] }),
  ),
  cells: metrics(
    (name, labelNames) => new CellCounter({ name, help: name, labelNames, registers: [cells] }),
    (name, labelNames) => new CellHistogram({ name, help: name, labelNames, buckets: DURATION_BUCKETS, registers: [cells] }),
  ),
};

const toolLabels = Object.freeze({ server: 'everything', tool: 'echo', outcome: 'ok' });
function call(subject: ReturnType<typeof metrics>, index: number): void {
  const seconds = 0.0003 + (index % 7) * 0.0001;
  subject.toolCalls.inc(toolLabels);
  subject.toolDuration.observe(toolLabels, seconds);
  subject.clientOperations.observe({ server: 'everything', mcp_method_name: 'tools/call', mcp_protocol_version: '2026-07-28', gen_ai_tool_name: 'echo', network_transport: 'pipe' }, seconds);
  subject.mcpRequests.inc({ endpoint: 'everything', method: 'tools/call', revision: '2026-07-28', status: String(200) });
  subject.serverOperations.observe({ mcp_method_name: 'tools/call', mcp_protocol_version: '2026-07-28', gen_ai_tool_name: 'echo' }, seconds);
  subject.httpRequests.inc({ route: '/:server/mcp', status: String(200) });
}

for (const subject of Object.values(subjects)) for (let index = 0; index < 200_000; index++) call(subject, index);
const perCall: Record<string, number[]> = { 'prom-client': [], cells: [] };
for (let round = 0; round < rounds; round++) {
  for (const [name, subject] of Object.entries(subjects)) {
    const before = process.cpuUsage();
    for (let index = 0; index < calls; index++) call(subject, index);
    const used = process.cpuUsage(before);
    perCall[name]?.push((used.user + used.system) / calls);
  }
}
for (const [name, figures] of Object.entries(perCall)) {
  console.log(
    `${name.padEnd(11)} a call's six metric updates: us of CPU, ${rounds} rounds of ${calls}, lowest first: ${figures
      .sort((a, b) => a - b)
      .map((us) => us.toFixed(3))
      .join(' ')}`,
  );
}

// The load generator of the carriage benches, in its own process so that the callers'
// work never shares a process with the hub or the child under test. Prints LoadFigures.
// Run by the benches: node dist/bench/load-client.js <url> <callers> <calls> <tool> <json-arguments> [revision]
// with BENCH_BEARER in the environment, every request carries that bearer token.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runLoad } from './measure.js';

const [url = '', callers = '1', calls = '1000', tool = 'echo', args = '{}', revision = '2026-07-28'] = process.argv.slice(2);
const toolArguments = JSON.parse(args) as Record<string, unknown>;
const figures = await runLoad(Number(callers), Number(calls), async () => {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: revision === '2025-11-25' ? 'legacy' : { pin: revision } } });
  const bearer = process.env.BENCH_BEARER;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), bearer === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
  return () => client.callTool({ name: tool, arguments: toolArguments });
});
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(0);

// The child's own stdio floor: `tools/call` of server-everything's `echo` straight over
// the child's stdin and stdout, as newline-delimited JSON-RPC with no MCP library on this
// side (everything-stdio.ts), `callers` requests outstanding at a time. What no hub in front
// of this child can exceed. In its own process; prints LoadFigures.
// Run by the carriage bench: node dist/bench/stdio-floor.js <callers> <calls>
import { startEverythingStdio } from './everything-stdio.js';
import { runLoad } from './measure.js';

const [callers = '1', calls = '1000'] = process.argv.slice(2);
const child = await startEverythingStdio();
const call = () => new Promise<void>((resolve) => child.request('tools/call', { name: 'echo', arguments: { message: 'hi' } }, () => resolve()));
for (let warm = 0; warm < 300; warm += 1) await call();
const figures = await runLoad(Number(callers), Number(calls), async () => call);
child.stop();
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(0);

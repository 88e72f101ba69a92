// The child's own stdio floor: `tools/call` of server-everything's `echo` straight over
// the child's stdin and stdout, as newline-delimited JSON-RPC with no MCP library on this
// side, `callers` requests outstanding at a time. What no hub in front of this child can
// exceed. In its own process; prints LoadFigures.
// Run by the carriage bench: node dist/bench/stdio-floor.js <callers> <calls>
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runLoad } from './measure.js';

const [callers = '1', calls = '1000'] = process.argv.slice(2);
const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const child = spawn(process.execPath, [everything, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
const waiting = new Map<number, () => void>();
let pending = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk: string) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
    const message = JSON.parse(pending.slice(0, end)) as { id?: number };
    pending = pending.slice(end + 1);
    if (message.id !== undefined) waiting.get(message.id)?.();
  }
});
let nextId = 0;
const request = (method: string, params: Record<string, unknown>): Promise<void> => {
  const id = (nextId += 1);
  const answered = new Promise<void>((resolve) => waiting.set(id, () => (waiting.delete(id), resolve())));
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  return answered;
};
await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'floor', version: '1' } });
child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
const call = () => request('tools/call', { name: 'echo', arguments: { message: 'hi' } });
for (let warm = 0; warm < 300; warm += 1) await call();
const figures = await runLoad(Number(callers), Number(calls), async () => call);
child.kill();
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(0);

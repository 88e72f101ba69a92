// server-everything (the child the carriage bench's hub fronts) as a stdio child with no MCP
// library on this side: newline-delimited JSON-RPC on its stdin and stdout, ids of this
// side's own, the `initialize` handshake made once at start. Shared by the stdio floor
// (stdio-floor.ts) and the stdio proxy floor (stdio-proxy-floor.ts).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const everythingScript = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

/** The child's answer to a request of this side's (`id` is this side's). */
export interface ChildAnswer {
  jsonrpc: '2.0';
  id: number | string | undefined;
  result?: unknown;
  error?: unknown;
}

export interface EverythingStdio {
  /** Sends one request; `answered` gets the child's answer to it. */
  request(method: unknown, params: unknown, answered: (answer: ChildAnswer) => void): void;
  stop: () => void;
}

export async function startEverythingStdio(): Promise<EverythingStdio> {
  const child = spawn(process.execPath, [everythingScript, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map<unknown, (answer: ChildAnswer) => void>();
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      const message = JSON.parse(pending.slice(0, end)) as ChildAnswer & { method?: unknown };
      pending = pending.slice(end + 1);
      // The child's own requests and notifications carry a method: only answers are awaited.
      const answered = message.method === undefined ? waiting.get(message.id) : undefined;
      if (!answered) continue;
      waiting.delete(message.id);
      answered(message);
    }
  });
  // As the hub writes to a child (core/children/client/batched-send.ts): what one turn of the event
  // loop sends goes out in one write, so that a floor does not pay a write a call where the
  // hub pays one a turn.
  let queued: string[] = [];
  const flush = (): void => {
    child.stdin.write(queued.join(''));
    queued = [];
  };
  const send = (message: Record<string, unknown>): void => {
    if (queued.length === 0) setImmediate(flush);
    queued.push(`${JSON.stringify(message)}\n`);
  };
  let nextId = 0;
  const request = (method: unknown, params: unknown, answered: (answer: ChildAnswer) => void): void => {
    const id = (nextId += 1);
    waiting.set(id, answered);
    send({ jsonrpc: '2.0', id, method, params });
  };
  await new Promise<ChildAnswer>((resolve) => request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'floor', version: '1' } }, resolve));
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request, stop: () => void child.kill() };
}

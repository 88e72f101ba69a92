import { parentPort } from 'node:worker_threads';
import type { FromWorker, ToolAnswer, ToWorker } from './run-protocol.js';
import { runInSandbox } from './sandbox.js';

/**
 * A sandbox worker: runs one program at a time, each in a QuickJS instance of its own
 * (sandbox.ts), off the hub's thread. Its tool calls and what it prints go to the hub's
 * thread as messages; the hub ends a run that is over its time by terminating the worker.
 */
const port = parentPort;
if (!port) throw new Error('code-mode/worker.js runs as a worker thread');
const send = (message: FromWorker): void => port.postMessage(message);
const waiting = new Map<number, (answer: ToolAnswer) => void>();
let current = 0;

port.on('message', (message: ToWorker) => {
  if (message.type === 'answer') {
    if (message.run !== current) return;
    waiting.get(message.call)?.(message.answer);
    waiting.delete(message.call);
    return;
  }
  const run = message.run;
  current = run;
  waiting.clear();
  let calls = 0;
  const host = {
    call: (server: string, tool: string, args: Record<string, unknown> | undefined) =>
      new Promise<ToolAnswer>((resolve) => {
        const call = ++calls;
        waiting.set(call, resolve);
        send({ type: 'call', run, call, server, tool, args });
      }),
    print: (line: string) => send({ type: 'print', run, line }),
  };
  void runInSandbox(message.code, message.limits, message.serverNames, host).then(
    (outcome) => send({ type: 'done', run, outcome }),
    () => send({ type: 'done', run, outcome: { ok: false, output: '', error: 'The sandbox failed and the run was stopped.' } }),
  );
});

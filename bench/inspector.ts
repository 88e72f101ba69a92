// A link to the inspector of another running Node process, for what only that process can
// do: a full garbage collection, its heap in use right after, the files it has loaded.
// The process is started with `--inspect-port=127.0.0.1:0` (INSPECT_PORT_ARG), which starts
// nothing; SIGUSR1 starts the inspector when the bench asks, so the process runs without one
// until then, and it prints its WebSocket address on stderr ("Debugger listening on ws://...").
// The DevTools protocol is spoken over undici's WebSocket.
// Why the inspector and not a heap snapshot for a full collection: a snapshot also collects
// (all available garbage), but building and writing it grows the process in native memory,
// which it keeps: on the idle hub (27 November 2026) a snapshot took the resident set from 92
// to 240 MB, still 240 MB after a later collection, while collectGarbage took it from 121 to
// 92 MB. Starting the inspector added 0.5 MB.
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'undici';

export const INSPECT_PORT_ARG = '--inspect-port=127.0.0.1:0';
/** How long the inspector may take to start after SIGUSR1 (a process busy collecting takes a moment). */
const START_MS = 30_000;

export interface InspectableProcess {
  kill(signal: NodeJS.Signals): boolean;
  /** Its stderr, piped and read by its owner (this adds a listener of its own). */
  stderr: Readable | null;
}

export interface InspectorLink {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Calls `listener` with the params of every `method` event until the returned function is called. */
  on(method: string, listener: (params: Record<string, unknown>) => void): () => void;
  close(): Promise<void>;
}

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message: string };
}

/** Starts the process's inspector (SIGUSR1) and connects to it. */
export async function openInspector(child: InspectableProcess): Promise<InspectorLink> {
  const { stderr } = child;
  if (stderr === null) throw new Error('the process has no piped stderr to read its inspector address from');
  const address = new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      stderr.off('data', onData);
      reject(new Error(`no "Debugger listening on" line within ${START_MS} ms of SIGUSR1`));
    }, START_MS);
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const found = /Debugger listening on (ws:\/\/\S+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        stderr.off('data', onData);
        resolve(found[1] as string);
      }
    };
    stderr.on('data', onData);
  });
  child.kill('SIGUSR1');
  const socket = new WebSocket(await address);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('could not connect to the inspector')), { once: true });
  });
  let next = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(params: Record<string, unknown>) => void>>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Message;
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    } else if (message.method !== undefined) {
      for (const listener of listeners.get(message.method) ?? []) listener(message.params ?? {});
    }
  });
  socket.addEventListener('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('the inspector closed the connection'));
    pending.clear();
  });
  return {
    call: <T>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    on(method, listener) {
      const set = listeners.get(method) ?? new Set();
      set.add(listener);
      listeners.set(method, set);
      return () => void set.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.addEventListener('close', () => resolve(), { once: true });
        socket.close();
      }),
  };
}

/** A full collection of all available garbage in the process; resolves to its V8 heap in use right after, in bytes. */
export async function collectGarbage(link: InspectorLink): Promise<number> {
  await link.call('HeapProfiler.collectGarbage');
  const usage = await link.call<{ usedSize: number }>('Runtime.getHeapUsage');
  return usage.usedSize;
}

/**
 * The program files (ES modules and CommonJS) the process has loaded, as absolute paths:
 * V8's scripts with a file address (enabling the debugger replays every script it holds)
 * and require.cache's keys, for CommonJS files whose script V8 holds no longer or never
 * had (JSON, a module whose functions are all gone). Node's own modules are not files.
 */
export async function loadedFiles(link: InspectorLink): Promise<string[]> {
  const files = new Set<string>();
  const stop = link.on('Debugger.scriptParsed', (params) => {
    const url = typeof params.url === 'string' ? params.url : '';
    if (url.startsWith('file://')) files.add(fileURLToPath(url));
    else if (url.startsWith('/')) files.add(url);
  });
  await link.call('Debugger.enable');
  stop();
  await link.call('Debugger.disable');
  // `require` is the one of the inspector's command line API, which Node adds; an ES module program has no other.
  const cached = await link.call<{ result: { value?: string }; exceptionDetails?: unknown }>('Runtime.evaluate', {
    expression: 'JSON.stringify(Object.keys(require.cache))',
    includeCommandLineAPI: true,
    returnByValue: true,
  });
  if (cached.exceptionDetails !== undefined || cached.result.value === undefined) throw new Error('could not read require.cache through the inspector');
  for (const file of JSON.parse(cached.result.value) as string[]) if (file.startsWith('/')) files.add(file);
  return [...files].sort();
}

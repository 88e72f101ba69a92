import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as asyncifyBuild from '@jitl/quickjs-wasmfile-release-asyncify';
import { newQuickJSAsyncWASMModuleFromVariant, newVariant, type QuickJSAsyncVariant, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle } from 'quickjs-emscripten-core';
import { didYouMean, listed } from './close-matches.js';
import { PROGRAM_FILE } from './program.js';

import { memoryError, type RunOutcome, type SandboxLimits, stackError, type ToolAnswer } from './run-protocol.js';

/** How a program's tool call reaches the hub: the JSON text of the value the program gets, or the text it rejects with. */
export type ToolBridge = (server: string, tool: string, args: Record<string, unknown> | undefined) => Promise<ToolAnswer>;

/** What a run hands the host besides its outcome: each tool call, and each line as it is printed. */
export interface SandboxHost {
  call: ToolBridge;
  print?(line: string): void;
}

/**
 * The globals a program gets, made inside the sandbox from the two host functions it is
 * handed (and then drops): `console` (what it prints goes through `print`) and `servers`,
 * whose tools go through `call` as JSON text, so no host object ever enters the sandbox
 * and nothing but text leaves it. A server is a proxy: any tool name reaches the hub,
 * which alone decides whether the caller may call it.
 */
const BOOTSTRAP = `(function (print, call, unknownServer, serverNames) {
  'use strict';
  const stringify = JSON.stringify, parse = JSON.parse, freeze = Object.freeze, create = Object.create;
  const show = (value) => {
    if (typeof value === 'string') return value;
    try { const json = stringify(value); return json === undefined ? String(value) : json; } catch { return String(value); }
  };
  const log = (...values) => { print(values.map(show).join(' ')); };
  globalThis.console = freeze({ log, info: log, warn: log, error: log, debug: log });
  // A tool call's promise, whose fields (other than a promise's own) say that an await is missing.
  const promiseKeys = ['then', 'catch', 'finally', 'constructor', 'toJSON'];
  const awaitHint = (promise, server, tool) => new Proxy(promise, {
    get(target, key) {
      if (typeof key === 'symbol' || promiseKeys.includes(key)) { const value = target[key]; return typeof value === 'function' ? value.bind(target) : value; }
      throw new TypeError('"' + key + '" was read from the promise servers.' + server + '.' + tool + '() returns, not from its result: an await is probably missing (await servers.' + server + '.' + tool + '(...)).');
    },
  });
  const servers = create(null);
  for (const server of serverNames) {
    servers[server] = new Proxy(freeze(create(null)), {
      get(_target, tool) {
        if (typeof tool !== 'string' || tool === 'then') return undefined;
        return (args) => awaitHint(call(server, tool, args === undefined ? undefined : stringify(args)).then(parse), server, tool);
      },
    });
  }
  // A server name the caller cannot reach (a typo, say) fails where it is read, naming the close ones.
  globalThis.servers = new Proxy(freeze(servers), {
    get(target, name) {
      if (typeof name !== 'string' || name in target || name === 'then' || name === 'toJSON') return target[name];
      throw new ReferenceError(unknownServer(name));
    },
  });
  return (value) => stringify(value);
})`;

// The package's types are CommonJS (a namespace whose `default` is the variant) while Node
// imports its ESM build, whose default export is the variant itself.
const asyncVariant = asyncifyBuild.default as unknown as QuickJSAsyncVariant;
// The hub's `lib` is ES2023 without the DOM's, where the WebAssembly global and the package's
// `WebAssembly.Module` and `.Memory` types are declared: these stand for them.
interface WasmModule {
  readonly [Symbol.toStringTag]: string;
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule>; Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
};

const PAGE = 64 * 1024;
/** How long a thrown value's own code (a getter of its message, its toString) may run while it is described. */
const DESCRIBE_MS = 100;
/** What the QuickJS build starts with (its static data and C stack): the Emscripten module's own default. */
const BASE_PAGES = (16 * 1024 * 1024) / PAGE;
const requireHere = createRequire(import.meta.url);
let compiled: Promise<WasmModule> | undefined;

/** QuickJS's WebAssembly, compiled once; each run instantiates it afresh. */
function compiledWasm(): Promise<WasmModule> {
  compiled ??= readFile(requireHere.resolve('@jitl/quickjs-wasmfile-release-asyncify/wasm'))
    .then((bytes) => wasm.compile(bytes))
    .catch((error: unknown) => {
      compiled = undefined;
      throw error;
    });
  return compiled;
}

/**
 * Runs `code` (JavaScript: an async function's call, as `program.ts` wraps it) in a
 * WebAssembly instance of its own: a fresh QuickJS module, runtime and context per run, so
 * that whatever a program does to its interpreter (or an interpreter bug it finds) ends
 * with the run; the instance is dropped afterwards. Memory and stack are QuickJS's own
 * limits; the output, result and tool-call limits end the run through the interrupt
 * handler at the program's next step. Time is not watched here: this runs in a worker
 * thread (worker.ts), and the hub's thread ends a run that is over its time by
 * terminating the worker (pool.ts), whatever the program is doing.
 */
export async function runInSandbox(code: string, limits: SandboxLimits, serverNames: readonly string[], host: SandboxHost): Promise<RunOutcome> {
  // QuickJS counts its allocations without their sizes in this build (no malloc_usable_size),
  // so its memory limit catches one large allocation but not many small ones: the
  // instance's own memory, which cannot grow past the limit, is what bounds a run.
  const memory = new wasm.Memory({ initial: BASE_PAGES, maximum: BASE_PAGES + Math.ceil(limits.memoryBytes / PAGE) });
  const module = await newQuickJSAsyncWASMModuleFromVariant(newVariant(asyncVariant, { wasmModule: await compiledWasm(), wasmMemory: memory }));
  const deferreds = new Set<QuickJSDeferredPromise>();
  let output = '';
  let outputBytes = 0;
  let toolCalls = 0;
  let finished = false;
  let settle!: (outcome: RunOutcome) => void;
  const done = new Promise<RunOutcome>((resolve) => (settle = resolve));
  const end = (outcome: RunOutcome): void => {
    if (finished) return;
    finished = true;
    settle(outcome);
  };
  const fail = (error: string): void => end({ ok: false, output, error });
  // The interpreter's own limits end a program inside it; what escapes to the host (the
  // engine's native stack exhausted by deep recursion, say) leaves the instance in an
  // unknown state, so the run ends and the instance is dropped without further calls.
  // `boolean`, not the `false` they start as: callbacks set them while the run is awaited.
  let broken = false as boolean;
  let programSettled = false as boolean;
  const guarded = (work: () => void): void => {
    try {
      work();
    } catch (error) {
      broken = true;
      fail(hostFailure(error, limits));
    }
  };

  const runtime = module.newRuntime({
    memoryLimitBytes: limits.memoryBytes,
    maxStackSizeBytes: limits.stackBytes,
    // Describing a thrown value runs the program's own code (a getter, a toString), which
    // gets a moment, not the rest of the run.
    interruptHandler: () => finished || (describing !== undefined && performance.now() > describing),
  });
  const vm = runtime.newContext();

  let describing: number | undefined;
  const describe = (handle: QuickJSHandle): string => {
    describing = performance.now() + DESCRIBE_MS;
    try {
      return describeError(vm, handle, limits);
    } finally {
      describing = undefined;
    }
  };

  /** Runs the promise jobs a settled call or the program's start queued; a failure there ends the run. */
  const drive = (): void => {
    if (finished) return;
    guarded(() => {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        const error = describe(jobs.error);
        jobs.error.dispose();
        fail(error);
      }
    });
  };

  const print = vm.newFunction('print', (text) => {
    if (finished) return;
    // The length is read before the text is copied out, so a program cannot make the host hold megabytes.
    const length = vm.getNumber(vm.getProp(text, 'length'));
    if (length > limits.maxOutputBytes - outputBytes) return fail(`The program printed more than the output limit (maxOutputBytes: ${limits.maxOutputBytes} bytes).`);
    const line = vm.getString(text);
    outputBytes += Buffer.byteLength(line) + 1;
    if (outputBytes > limits.maxOutputBytes) return fail(`The program printed more than the output limit (maxOutputBytes: ${limits.maxOutputBytes} bytes).`);
    output += `${line}\n`;
    host.print?.(line);
  });
  const call = vm.newFunction('call', (serverHandle, toolHandle, argsHandle) => {
    const deferred = vm.newPromise();
    deferreds.add(deferred);
    const server = vm.getString(serverHandle);
    const tool = vm.getString(toolHandle);
    const argsText = vm.typeof(argsHandle) === 'string' ? vm.getString(argsHandle) : undefined;
    toolCalls += 1;
    if (toolCalls > limits.maxToolCalls) {
      fail(`The program made more tool calls than the limit (maxToolCalls: ${limits.maxToolCalls}).`);
      return deferred.handle;
    }
    const args = argsText === undefined ? undefined : (JSON.parse(argsText) as unknown);
    const settleCall = (value: ToolAnswer): void => {
      deferreds.delete(deferred);
      if (finished) return;
      try {
        if ('json' in value) {
          const text = vm.newString(value.json);
          deferred.resolve(text);
          text.dispose();
        } else {
          const error = vm.newError({ name: 'ToolError', message: value.error });
          deferred.reject(error);
          error.dispose();
        }
        deferred.dispose();
      } catch (error) {
        return fail(limitOfHostError(error, limits));
      }
      drive();
    };
    const isObject = typeof args === 'object' && args !== null && !Array.isArray(args);
    if (args !== undefined && !isObject) {
      queueMicrotask(() => settleCall({ error: `The arguments of ${server}.${tool} must be an object.` }));
    } else {
      host.call(server, tool, args as Record<string, unknown> | undefined).then(settleCall, () => settleCall({ error: `${server}.${tool} failed.` }));
    }
    return deferred.handle;
  });

  const unknownServer = vm.newFunction('unknownServer', (nameHandle) => {
    // The name is the program's: only its start is copied out.
    const length = vm.getNumber(vm.getProp(nameHandle, 'length'));
    const name = length > 256 ? `(a name of ${length} characters)` : vm.getString(nameHandle);
    return vm.newString(`Unknown server: "${name}".${didYouMean(name, serverNames)} The servers you can reach: ${listed(serverNames)}.`);
  });

  let toJson: QuickJSHandle | undefined;
  guarded(() => {
    const names = vm.newArray();
    serverNames.forEach((name, index) => {
      const handle = vm.newString(name);
      vm.setProp(names, index, handle);
      handle.dispose();
    });
    const installed = vm.evalCode(BOOTSTRAP, 'bootstrap.js');
    if (installed.error) {
      fail(describe(installed.error));
      installed.error.dispose();
    } else {
      const made = vm.callFunction(installed.value, vm.undefined, print, call, unknownServer, names);
      installed.value.dispose();
      if (made.error) {
        fail(describe(made.error));
        made.error.dispose();
      } else toJson = made.value;
    }
    print.dispose();
    call.dispose();
    unknownServer.dispose();
    names.dispose();

    if (!finished) {
      const started = vm.evalCode(code, PROGRAM_FILE);
      if (started.error) {
        fail(describe(started.error));
        started.error.dispose();
      } else {
        const program = started.value;
        vm.resolvePromise(program).then(
          (result) =>
            guarded(() => {
              programSettled = true;
              if (result.error) {
                if (!finished) fail(describe(result.error));
                result.error.dispose();
                return;
              }
              if (!finished && toJson) end(returnedValue(vm, toJson, result.value, limits, output));
              result.value.dispose();
            }),
          () => fail('The program could not be run.'),
        );
        program.dispose();
      }
    }
  });
  drive();

  const outcome = await done;
  // Every handle goes before the context and the runtime (QuickJS asserts it). A run that
  // ended at its program's end frees its interpreter; one stopped mid-way (a limit, a call
  // still out) may hold objects QuickJS would assert on, and its instance, this run's
  // alone, is dropped whole instead.
  if (broken || !programSettled || deferreds.size > 0) return outcome;
  try {
    toJson?.dispose();
    vm.dispose();
    runtime.dispose();
  } catch {
    // Unreachable once this returns, like a dropped instance.
  }
  return outcome;
}

/** The program's value as JSON, within the result limit. */
function returnedValue(vm: QuickJSContext, toJson: QuickJSHandle, value: QuickJSHandle, limits: SandboxLimits, output: string): RunOutcome {
  if (vm.typeof(value) === 'undefined') return { ok: true, output, value: undefined, hasValue: false };
  const json = vm.callFunction(toJson, vm.undefined, value);
  if (json.error) {
    const error = describeError(vm, json.error, limits);
    json.error.dispose();
    return { ok: false, output, error: `The returned value is not JSON: ${error}` };
  }
  try {
    if (vm.typeof(json.value) !== 'string')
      return {
        ok: true,
        output,
        value: undefined,
        hasValue: false,
        note: `The returned value (a ${vm.typeof(value)}) is not JSON and was dropped: return an object, array, string, number, boolean or null.`,
      };
    const length = vm.getNumber(vm.getProp(json.value, 'length'));
    const tooLarge = { ok: false as const, output, error: `The returned value is larger than the result limit (maxResultBytes: ${limits.maxResultBytes} bytes).` };
    if (length > limits.maxResultBytes) return tooLarge;
    const text = vm.getString(json.value);
    if (Buffer.byteLength(text) > limits.maxResultBytes) return tooLarge;
    return { ok: true, output, value: JSON.parse(text) as unknown, hasValue: true };
  } finally {
    json.value.dispose();
  }
}

/** An error the program threw (or QuickJS raised in it), with the limit it names or its line. */
function describeError(vm: QuickJSContext, handle: QuickJSHandle, limits: SandboxLimits): string {
  let dumped: unknown;
  try {
    dumped = vm.dump(handle);
  } catch {
    return UNREADABLE_ERROR;
  }
  if (typeof dumped !== 'object' || dumped === null) return `Error: the program threw ${typeof dumped === 'string' ? dumped : String(dumped)}`.slice(0, MAX_ERROR_LENGTH);
  const error = dumped as { name?: unknown; message?: unknown; stack?: unknown };
  const json = JSON.stringify(dumped);
  const message = typeof error.message === 'string' ? error.message : json === '{}' || 'stack' in error ? undefined : json;
  if (message === undefined) return UNREADABLE_ERROR;
  const name = typeof error.name === 'string' ? error.name : 'Error';
  if (/out of memory/i.test(message)) return memoryError(limits);
  if (/stack overflow|call stack size exceeded/i.test(message)) return stackError(limits);
  const line = typeof error.stack === 'string' ? new RegExp(`${PROGRAM_FILE.replace('.', '\\.')}:(\\d+)`).exec(error.stack)?.[1] : undefined;
  return `${name}: ${message.slice(0, MAX_ERROR_LENGTH)}${line === undefined ? '' : ` (line ${line})`}`;
}

/** What a thrown value whose message cannot be read (its getter or toString throws, or runs past DESCRIBE_MS) is reported as. */
const UNREADABLE_ERROR = 'Error: the program threw a value whose message could not be read (its message or toString threw or ran too long).';
/** A thrown message is the program's text: the model gets its start. */
const MAX_ERROR_LENGTH = 4096;

/** What escaped the interpreter into the host, as the limit it hit. */
function hostFailure(error: unknown, limits: SandboxLimits): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return stackError(limits);
  if (/memory/i.test(String(error))) return memoryError(limits);
  return 'The sandbox failed and the run was stopped.';
}

/** A failure of the host side of the bridge: the sandbox's memory was exhausted while a value went in. */
function limitOfHostError(error: unknown, limits: SandboxLimits): string {
  return /memory/i.test(String(error)) ? memoryError(limits) : 'The sandbox failed while handing a tool result to the program.';
}

import { access, constants, stat } from 'node:fs/promises';
import { delimiter, resolve } from 'node:path';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { Type, type Static } from 'typebox';
import { GroupedStdioTransport } from './grouped-transport.js';
import { batchedSend, ChildEndedError, type ChildType, connectClient, PlainReadBuffer, type StderrLimits, StderrLog, type StderrMemory } from '../../core/plugin/child-type.js';

/** Why a command could not be started at all, in an operator's words. */
const SPAWN_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file, or not found on PATH',
  EACCES: 'permission denied (is it executable?)',
  ENOTDIR: 'a folder in its path is not a folder',
  EISDIR: 'it is a folder',
};

export const StdioEntry = Type.Object(
  {
    command: Type.String({ minLength: 1, description: 'The executable; looked up on PATH.' }),
    args: Type.Optional(Type.Array(Type.String())),
    env: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Added to the safe default environment.' })),
    cwd: Type.Optional(Type.String({ description: 'Working directory, relative to the config file.' })),
  },
  { additionalProperties: true },
);
type StdioEntry = Static<typeof StdioEntry>;

export interface StdioTypeOptions {
  clientInfo: { name: string; version: string };
  /** Relative `cwd` values are resolved against it. */
  configDirectory: string;
  negotiation: 'legacy' | 'auto';
  stderr: StderrLimits;
}

/**
 * `stdio` children: a process spawned from `command`/`args`/`env`/`cwd`, spoken to with
 * newline-delimited JSON-RPC through the SDK's stdio client transport. On-demand unless
 * `keepAlive` is true.
 */
export function createStdioChildType(options: StdioTypeOptions): ChildType {
  const stderrMemories = new Map<string, StderrMemory>();
  return {
    type: 'stdio',
    entrySchema: StdioEntry,
    alwaysRunning: (entry) => entry.keepAlive === true,
    probes: options.negotiation === 'auto',
    async check(entry) {
      const { command, cwd, env } = entry as StdioEntry;
      const folder = cwd === undefined ? process.cwd() : resolve(options.configDirectory, cwd);
      const found = await findCommand(command, folder, env?.PATH ?? process.env.PATH ?? '');
      return found === undefined
        ? { ok: false, detail: command.includes('/') ? `"${command}" is not an executable file (from ${folder})` : `"${command}" is not on PATH` }
        : { ok: true, detail: `"${command}" is ${found}` };
    },
    async connect(entry, context) {
      // The kernel checked the entry against StdioEntry before adding the server.
      const { command, args, env, cwd } = entry as StdioEntry;
      const transport = new GroupedStdioTransport(
        {
          command,
          ...(args === undefined ? {} : { args }),
          ...(env === undefined ? {} : { env }),
          ...(cwd === undefined ? {} : { cwd: resolve(options.configDirectory, cwd) }),
          stderr: 'pipe',
        },
        // The commonest answers read without the schema library.
        new PlainReadBuffer(),
      );
      // The calls of one turn of the event loop in one pipe write (the SDK's transport writes
      // each message on its own). Set on the instance; the process is read at each write.
      transport.send = batchedSend(
        () => transport.childProcess()?.stdin ?? undefined,
        () => new SdkError(SdkErrorCode.NotConnected, 'Not connected'),
      );
      let memory = stderrMemories.get(context.name);
      if (!memory) stderrMemories.set(context.name, (memory = {}));
      const stderr = new StderrLog(context.name, context.log, options.stderr, memory);
      transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
      transport.stderr?.on('end', () => stderr.end());
      try {
        const connection = await connectClient(transport, context, {
          clientInfo: options.clientInfo,
          negotiation: options.negotiation,
          endedIsFinal: true,
          plainToolCalls: true,
          describeClose: () => describeExit(transport.exit, stderr.cause),
        });
        connection.stderrTail = () => stderr.tail;
        return connection;
      } catch (error) {
        const spawn = (error instanceof ChildEndedError ? error.cause : error) as NodeJS.ErrnoException | undefined;
        if (!spawn?.syscall?.startsWith('spawn')) throw error;
        throw new ChildEndedError(`cannot run "${command}": ${SPAWN_PROBLEMS[spawn.code ?? ''] ?? spawn.message} (${spawn.message})`, { cause: error });
      }
    },
  };
}

/**
 * Why a process ended, for status and logs: a signal is named on its own (what the
 * process last printed is then unrelated: a kill comes from outside), an exit code with
 * the stderr line that best says why.
 */
function describeExit(exit: { code: number | null; signal: NodeJS.Signals | null } | undefined, cause: string | undefined): string {
  if (exit?.signal) return `the process was killed by ${exit.signal}`;
  const stated = cause === undefined ? '' : ` (stderr: ${cause})`;
  return exit?.code == null ? `the process exited${stated}` : `the process exited with code ${exit.code}${stated}`;
}

/**
 * Where `command` would be run from, as the spawn finds it: a path with a slash from the
 * child's working folder, a bare name on PATH; undefined when there is no executable file.
 */
async function findCommand(command: string, folder: string, path: string): Promise<string | undefined> {
  const candidates = command.includes('/')
    ? [resolve(folder, command)]
    : path
        .split(delimiter)
        .filter((entry) => entry !== '')
        .map((entry) => resolve(entry, command));
  for (const candidate of candidates) {
    const executable = await access(candidate, constants.X_OK).then(
      async () => (await stat(candidate)).isFile(),
      () => false,
    );
    if (executable) return candidate;
  }
  return undefined;
}

import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Type, type Static } from 'typebox';
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
    async connect(entry, context) {
      // The kernel checked the entry against StdioEntry before adding the server.
      const { command, args, env, cwd } = entry as StdioEntry;
      const transport = new StdioClientTransport({
        command,
        ...(args === undefined ? {} : { args }),
        ...(env === undefined ? {} : { env }),
        ...(cwd === undefined ? {} : { cwd: resolve(options.configDirectory, cwd) }),
        stderr: 'pipe',
      });
      // The calls of one turn of the event loop in one pipe write (the SDK's transport writes
      // each message on its own), and the commonest answers read without the schema library.
      // Set on the instance, so the transport stays the SDK's own class (the SDK's probe on a
      // sibling process needs exactly that); its process and its read buffer are the
      // transport's private fields (the process read at each write).
      const internals = transport as unknown as { _process?: ChildProcess; _readBuffer: PlainReadBuffer };
      transport.send = batchedSend(
        () => internals._process?.stdin ?? undefined,
        () => new SdkError(SdkErrorCode.NotConnected, 'Not connected'),
      );
      internals._readBuffer = new PlainReadBuffer();
      let memory = stderrMemories.get(context.name);
      if (!memory) stderrMemories.set(context.name, (memory = {}));
      const stderr = new StderrLog(context.name, context.log, options.stderr, memory);
      transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
      transport.stderr?.on('end', () => stderr.end());
      try {
        return await connectClient(transport, context, {
          clientInfo: options.clientInfo,
          negotiation: options.negotiation,
          endedIsFinal: true,
          plainToolCalls: true,
          describeClose: () => `the process exited${stderr.cause === undefined ? '' : ` (stderr: ${stderr.cause})`}`,
        });
      } catch (error) {
        const spawn = (error instanceof ChildEndedError ? error.cause : error) as NodeJS.ErrnoException | undefined;
        if (!spawn?.syscall?.startsWith('spawn')) throw error;
        throw new ChildEndedError(`cannot run "${command}": ${SPAWN_PROBLEMS[spawn.code ?? ''] ?? spawn.message} (${spawn.message})`, { cause: error });
      }
    },
  };
}

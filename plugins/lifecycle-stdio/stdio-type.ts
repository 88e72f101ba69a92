import { resolve } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Type, type Static } from 'typebox';
import type { ChildType } from '../../core/children/child-type.js';
import { connectClient } from '../../core/children/connect-client.js';
import { StderrLog, type StderrLimits } from '../../core/children/stderr-log.js';

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
      const stderr = new StderrLog(context.name, context.log, options.stderr);
      transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
      transport.stderr?.on('end', () => stderr.end());
      return connectClient(transport, context, {
        clientInfo: options.clientInfo,
        negotiation: options.negotiation,
        describeClose: () => `the process exited${stderr.lastLine === undefined ? '' : ` (last stderr line: ${stderr.lastLine})`}`,
      });
    },
  };
}

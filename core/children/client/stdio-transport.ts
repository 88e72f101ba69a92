import type { ChildProcess } from 'node:child_process';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import type { PlainReadBuffer } from './plain-read-buffer.js';
import { sdkSeams } from './plain-call-client.js';

/**
 * The SDK's stdio transport with what a stdio child type needs of it beyond its public
 * members, as methods of its own: the process it speaks to, a read buffer that reads the
 * commonest answers without the schema library, and a process the child type spawned
 * itself (the SDK spawns with options it does not let a caller set). The SDK's private
 * fields behind them are reached in plain-call-client.ts only (`sdkSeams`).
 */
export class HubStdioTransport extends StdioClientTransport {
  constructor(params: StdioServerParameters, buffer?: PlainReadBuffer) {
    super(params);
    if (buffer) sdkSeams(this).useReadBuffer(buffer);
  }

  /** The spawned process, once started. */
  childProcess(): ChildProcess | undefined {
    return sdkSeams(this).process();
  }

  /** Makes `spawned` the transport's own process, as if its `start` had spawned it (its `close` then ends it); undefined once it closed. */
  adoptProcess(spawned: ChildProcess | undefined): void {
    sdkSeams(this).adoptProcess(spawned);
  }
}

import type { Client, Implementation, ServerCapabilities } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEntry } from '../config/schema.js';
import type { ChildType } from './child-type.js';
import type { ChildWires } from './wires.js';

/** What a child shows a client of one revision: its identity, instructions and capabilities. */
export interface ChildFace {
  serverInfo?: Implementation;
  instructions?: string;
  capabilities?: ServerCapabilities;
}

/** What a connection states about the child, on the revision it negotiated. */
export function faceOf(client: Client): ChildFace {
  const serverInfo = client.getServerVersion();
  const instructions = client.getInstructions();
  const capabilities = client.getServerCapabilities();
  return { ...(serverInfo && { serverInfo }), ...(instructions !== undefined && { instructions }), ...(capabilities && { capabilities }) };
}

/** Whether two faces say the same. */
export function sameFace(a: ChildFace, b: ChildFace): boolean {
  return JSON.stringify([a.serverInfo, a.instructions, a.capabilities]) === JSON.stringify([b.serverInfo, b.instructions, b.capabilities]);
}

/** What learning a face needs of the child. */
export interface FaceHost {
  readonly name: string;
  readonly entry: ServerEntry;
  readonly childType: ChildType;
  readonly log: FastifyBaseLogger;
  readonly wires: ChildWires;
  readonly configDirectory: string;
}

/**
 * Asks the child what it shows a client of `revision`, on a connection of its own that
 * speaks exactly that revision (the hub's connection speaks another), closed as soon as
 * the answer is read. Null when the child shows nothing there: the type cannot reach the
 * revision, the child negotiates another, or it refuses; what it would show is then the
 * face of the revision the hub speaks with it. Undefined when `signal` ended the asking
 * (the request's budget ran out, or the server was stopped): nothing was learnt.
 */
export async function learnFace(host: FaceHost, revision: string, signal: AbortSignal): Promise<ChildFace | null | undefined> {
  try {
    const connection = await host.childType.connect(host.entry, { name: host.name, log: host.log, signal, prior: undefined, wires: host.wires, configDirectory: host.configDirectory, revision, onClosed: () => undefined });
    try {
      if (signal.aborted) return undefined;
      const negotiated = connection.client.getNegotiatedProtocolVersion();
      if (host.wires.revisionFor(negotiated) !== revision) {
        host.log.info({ revision, negotiated }, 'the server shows nothing of its own to clients of this revision');
        return null;
      }
      return faceOf(connection.client);
    } finally {
      await connection.close().catch(() => undefined);
    }
  } catch (error) {
    if (signal.aborted) return undefined;
    host.log.info({ revision, err: (error as Error).message }, 'the server shows nothing of its own to clients of this revision');
    return null;
  }
}

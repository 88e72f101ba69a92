import type { ChildProcess } from 'node:child_process';
import type { Server } from '@modelcontextprotocol/server';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  Client,
  isJSONRPCErrorResponse,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type CallToolRequestParams,
  type CallToolResult,
  type InputRequiredResult,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type JSONRPCResultResponse,
} from '@modelcontextprotocol/client';
import { InFlightMap } from '../../in-flight-map.js';
import type { BatchedSend } from './batched-send.js';
import type { CallCancel } from './call-cancel.js';
import { plainToolAnswer } from './plain-answer.js';
import { repairedMessage, type ResultRepair } from './tolerant-transport.js';

/** The plain road's request ids: strings, where the SDK client numbers its own requests. */
const PLAIN_ID_PREFIX = 'hub-';

type Answer = JSONRPCResponse | JSONRPCErrorResponse | SdkError;

/**
 * The SDK client the hub connects to each child, with a plain road for the commonest
 * call on a transport that carries whole messages (stdio, a socket). The SDK's road costs
 * more CPU than the child's own work: a per-request timer and abort wiring, a lookup in its
 * response cache, promise hops, and the result validated on the way through. Here
 * `tools/call` goes out on the same transport exactly as the SDK sends it (the revision's
 * envelope from the SDK itself), and the answer is read by `decodeToolAnswer`, the one
 * decoder of a child's tool answer on every road outside the SDK's own: the revision's
 * repair, then the commonest answer read by hand (plain-answer.ts) and any other by the
 * SDK's codec, with the same validation and the same error classes and texts. The hub's timeout and the caller's cancellation come in as one `CallCancel`; cancelling
 * tells the child as the SDK does. Written against the SDK's documented subclass seams
 * (it overrides `_onresponse` and `_onclose`; the codec and the envelope it reads through
 * `sdkSeams`, below), so everything else is the SDK's.
 */
export class PlainCallClient extends Client {
  readonly #pending = new InFlightMap<string, (answer: Answer) => void>();
  // Made once: the plain road reads the envelope on every call, and a fresh object of closures each time was a quarter KB a call.
  readonly #seams = sdkSeams(this);
  #nextId = 0;
  /** The negotiated revision's repair of a child's results (see tolerant-transport.ts); set by `connectClient`. */
  repair: ResultRepair = () => undefined;
  /** The negotiated revision's `plainResult`, for the answers read by hand (plain-answer.ts); set by `connectClient`. */
  unwrap: ResultRepair = () => undefined;

  /**
   * The per-request `_meta` envelope the SDK attaches on this connection's revision, for a
   * request sent outside the SDK (undefined on a revision without one).
   */
  plainEnvelope(): Record<string, unknown> | undefined {
    return this.#seams.outboundMetaEnvelope();
  }

  /**
   * `tools/call` for a caller that needs nothing only the SDK's road gives (no progress, no
   * question it could answer, no output schema to check). Undefined when nothing was sent
   * (not connected): the SDK's road then answers as it does.
   */
  plainToolCall(params: CallToolRequestParams, cancel: CallCancel): Promise<CallToolResult | InputRequiredResult | undefined> {
    const transport = this.transport;
    if (!transport) return Promise.resolve(undefined);
    if (cancel.aborted) return Promise.reject(cancelled(cancel.reason));
    const id = `${PLAIN_ID_PREFIX}${(this.#nextId += 1)}`;
    const envelope = this.#seams.outboundMetaEnvelope();
    const request = {
      method: 'tools/call',
      params: envelope === undefined ? params : { ...params, _meta: { ...envelope, ...params._meta } },
      jsonrpc: '2.0' as const,
      id,
    };
    return new Promise((resolve, reject) => {
      const stopHearing = cancel.onCancel((reason) => {
        if (!this.#pending.delete(id)) return;
        this.notification({ method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } }).catch((error: unknown) =>
          this.onerror?.(new Error(`Failed to send cancellation: ${String(error)}`)),
        );
        reject(cancelled(reason));
      });
      this.#pending.set(id, (answer) => {
        stopHearing();
        if (answer instanceof Error) reject(answer);
        else {
          try {
            resolve(this.decodeToolAnswer(answer));
          } catch (error) {
            reject(error);
          }
        }
      });
      const failed = (error: unknown): void => {
        if (!this.#pending.delete(id)) return;
        stopHearing();
        reject(error);
      };
      // A transport whose `send` batches (batched-send.ts) takes the call without a promise.
      const batched = (transport as unknown as { send: Partial<BatchedSend> }).send;
      if (typeof batched.post === 'function') batched.post(request, failed);
      else transport.send(request).catch(failed);
    });
  }

  /**
   * Settles the plain road's call a response answers, before the SDK client's dispatch
   * (the transport offers each response here first: tolerant-transport.ts `claim`); false
   * for any other message, which the SDK client then reads as it does.
   */
  claimPlainAnswer(message: JSONRPCMessage): boolean {
    const id = (message as { id?: unknown }).id;
    const settle = typeof id === 'string' ? this.#pending.get(id) : undefined;
    if (!settle) return false;
    this.#pending.delete(id as string);
    settle(message as JSONRPCResponse);
    return true;
  }

  // A transport that does not offer its responses first still reaches the plain road's calls here.
  protected override _onresponse(response: JSONRPCResponse): void {
    if (!this.claimPlainAnswer(response)) super._onresponse(response);
  }

  protected override _onclose(): void {
    const pending = this.#pending.takeAll();
    try {
      super._onclose();
    } finally {
      const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
      for (const settle of pending) settle(error);
    }
  }

  /**
   * A child's answer to `tools/call` as the SDK's request funnel reads it (with
   * `allowInputRequired`): the child's error as the same protocol error, a question as the
   * child put it, a result validated by the revision's codec.
   */
  decodeToolAnswer(message: JSONRPCMessage): CallToolResult | InputRequiredResult {
    const plain = plainToolAnswer(message, this.repair, this.unwrap);
    if (plain) return plain;
    if (isJSONRPCErrorResponse(message)) throw ProtocolError.fromError(message.error.code, message.error.message, message.error.data);
    const answer = repairedMessage(message, this.repair) as JSONRPCResultResponse;
    const codec = this.#seams.wireCodec();
    const decoded = codec.decodeResult('tools/call', answer.result);
    if (decoded.kind === 'invalid') throw decoded.error;
    if (decoded.kind === 'input_required') return answer.result as InputRequiredResult;
    const checked = codec.validateResult('tools/call', decoded.result);
    if (!checked.ok) throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${checked.reason === 'invalid' ? checked.message : 'not-in-era: tools/call'}`);
    return checked.value;
  }
}

/** What the SDK's road rejects a cancelled request with. */
function cancelled(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

/**
 * What a child type's own plain road needs of a connection `connectClient` made: the
 * revision and the per-request envelope to send, and the one decoder of the answer
 * (`PlainCallClient.decodeToolAnswer`).
 */
export interface PlainRoad {
  revision: string;
  envelope: Record<string, unknown>;
  decode(message: JSONRPCMessage): CallToolResult | InputRequiredResult;
}

/**
 * The plain road of a connection, or undefined when its revision sends no per-request
 * envelope (its requests belong to the session the SDK client holds) or the client is not
 * one `connectClient` made.
 */
export function plainRoadOf(client: Client): PlainRoad | undefined {
  if (!(client instanceof PlainCallClient)) return undefined;
  const revision = client.getNegotiatedProtocolVersion();
  const envelope = client.plainEnvelope();
  if (revision === undefined || envelope === undefined) return undefined;
  return { revision, envelope, decode: (message) => client.decodeToolAnswer(message) };
}

/** The SDK client's protected members the plain road calls (see plain-call-client.ts). */
export interface ClientSeams {
  /** The codec of the negotiated revision: decodes and validates a result as the SDK's request funnel does. */
  wireCodec(): WireCodec;
  /** The per-request `_meta` envelope the SDK attaches on this connection's revision (undefined on a revision without one). */
  outboundMetaEnvelope(): Record<string, unknown> | undefined;
}

/** The SDK's codec of a connection's revision (a type the SDK does not export by name). */
export type WireCodec = ReturnType<Client['_wireCodec']>;

/** The SDK stdio transport's private fields the hub relies on. */
export interface StdioTransportSeams {
  /** The spawned process, once started (undefined should the SDK drop the field). */
  process(): ChildProcess | undefined;
  /** Replaces the transport's read buffer. */
  useReadBuffer(buffer: unknown): void;
  /** Makes a process spawned by the hub the transport's own, as if its `start` had spawned it (its `close` then ends it). */
  adoptProcess(spawned: ChildProcess | undefined): void;
}

/** The SDK server's private handler map, read-only. */
export interface ServerSeams {
  /** The methods the server already answers: the handlers its constructor installs cannot be listed through its public API. */
  requestMethods(): string[];
}

interface SdkInternals {
  _wireCodec(): WireCodec;
  _outboundMetaEnvelope(): unknown;
  _process?: ChildProcess;
  _readBuffer?: unknown;
  _requestHandlers?: Map<string, unknown>;
}

/**
 * The one function through which the hub reaches members the SDK does not make public (protected and
 * private), so that an SDK upgrade that moves them breaks in this module (beside the plain-call client's two overrides) and nowhere else: the
 * client's codec and per-request envelope (the plain road), the stdio transport's process
 * and read buffer (the stdio child type, through `HubStdioTransport`), and a server's
 * installed handlers (core/http/failed-handshake.ts). Nothing of it is on a published entry.
 */
export function sdkSeams(client: Client): ClientSeams;
export function sdkSeams(transport: StdioClientTransport): StdioTransportSeams;
export function sdkSeams(server: Server): ServerSeams;
export function sdkSeams(target: object): ClientSeams & StdioTransportSeams & ServerSeams {
  const internals = target as SdkInternals;
  return {
    wireCodec: () => internals._wireCodec(),
    outboundMetaEnvelope: () => internals._outboundMetaEnvelope() as Record<string, unknown> | undefined,
    process: () => internals._process,
    useReadBuffer: (buffer) => {
      internals._readBuffer = buffer;
    },
    adoptProcess: (spawned) => {
      internals._process = spawned;
    },
    requestMethods: () => [...(internals._requestHandlers?.keys() ?? [])],
  };
}

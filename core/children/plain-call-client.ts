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
  type JSONRPCResponse,
} from '@modelcontextprotocol/client';

/** The plain road's request ids: strings, where the SDK client numbers its own requests. */
const PLAIN_ID_PREFIX = 'hub-';

type Answer = JSONRPCResponse | JSONRPCErrorResponse | SdkError;

/**
 * The SDK client the hub connects to each child, with a plain road for the commonest
 * call on a transport that carries whole messages (stdio, a socket). The SDK's road costs
 * more CPU than the child's own work: a per-request timer and abort wiring, a lookup in its
 * response cache, promise hops, and the result validated on the way through. Here
 * `tools/call` goes out on the same transport exactly as the SDK sends it (the era's
 * envelope from the SDK itself), and the answer is read with the SDK's own era codec: the
 * same decoding, the same validation and the same error classes and texts. The hub's
 * timeout and the caller's cancellation come in as one signal; cancelling tells the child
 * as the SDK does. Written against the SDK's documented subclass seams (`_onresponse`,
 * `_onclose`, `_wireCodec`, `_outboundMetaEnvelope`), so everything else is the SDK's.
 */
export class PlainCallClient extends Client {
  readonly #pending = new Map<string, (answer: Answer) => void>();
  #nextId = 0;

  /**
   * `tools/call` for a caller that needs nothing only the SDK's road gives (no progress, no
   * question it could answer, no output schema to check). Undefined when nothing was sent
   * (not connected): the SDK's road then answers as it does.
   */
  plainToolCall(params: CallToolRequestParams, signal: AbortSignal): Promise<CallToolResult | InputRequiredResult | undefined> {
    const transport = this.transport;
    if (!transport) return Promise.resolve(undefined);
    if (signal.aborted) return Promise.reject(cancelled(signal.reason));
    const id = `${PLAIN_ID_PREFIX}${(this.#nextId += 1)}`;
    const envelope = this._outboundMetaEnvelope();
    const request = {
      method: 'tools/call',
      params: envelope === undefined ? params : { ...params, _meta: { ...envelope, ...params._meta } },
      jsonrpc: '2.0' as const,
      id,
    };
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.#pending.delete(id)) return;
        this.notification({ method: 'notifications/cancelled', params: { requestId: id, reason: String(signal.reason) } }).catch((error: unknown) =>
          this.onerror?.(new Error(`Failed to send cancellation: ${String(error)}`)),
        );
        reject(cancelled(signal.reason));
      };
      this.#pending.set(id, (answer) => {
        signal.removeEventListener('abort', onAbort);
        if (answer instanceof Error) reject(answer);
        else {
          try {
            resolve(this.#decode(answer));
          } catch (error) {
            reject(error as Error);
          }
        }
      });
      signal.addEventListener('abort', onAbort, { once: true });
      transport.send(request).catch((error: unknown) => {
        if (!this.#pending.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      });
    });
  }

  protected override _onresponse(response: JSONRPCResponse): void {
    const settle = typeof response.id === 'string' ? this.#pending.get(response.id) : undefined;
    if (!settle) {
      super._onresponse(response);
      return;
    }
    this.#pending.delete(response.id as string);
    settle(response);
  }

  protected override _onclose(): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    try {
      super._onclose();
    } finally {
      const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
      for (const settle of pending) settle(error);
    }
  }

  /** The answer as the SDK's request funnel reads a `tools/call` answer (with `allowInputRequired`). */
  #decode(answer: JSONRPCResponse | JSONRPCErrorResponse): CallToolResult | InputRequiredResult {
    if (isJSONRPCErrorResponse(answer)) throw ProtocolError.fromError(answer.error.code, answer.error.message, answer.error.data);
    const codec = this._wireCodec();
    const decoded = codec.decodeResult('tools/call', answer.result);
    if (decoded.kind === 'invalid') throw decoded.error;
    if (decoded.kind === 'input_required') {
      return {
        resultType: 'input_required',
        inputRequests: decoded.inputRequests,
        ...(decoded.requestState !== undefined && { requestState: decoded.requestState }),
        ...(decoded._meta !== undefined && { _meta: decoded._meta }),
      } as InputRequiredResult;
    }
    const checked = codec.validateResult('tools/call', decoded.result);
    if (!checked.ok) throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${checked.reason === 'invalid' ? checked.message : 'not-in-era: tools/call'}`);
    return checked.value as CallToolResult;
  }
}

/** What the SDK's road rejects a cancelled request with. */
function cancelled(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

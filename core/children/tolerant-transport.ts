import { isJSONRPCResponse, isJSONRPCResultResponse, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

export interface ToleranceOptions {
  /** Whether the connection speaks 2026-07-28, where a result must state its `resultType`. */
  isModern(): boolean;
  /** Told each time a result without `resultType` is read as complete. */
  onRepaired(): void;
}

/**
 * The SDK client's transport, as the hub reads a child through it, tolerant of two known
 * faults that would make the hub visible to its callers:
 *
 * - A 2026-07-28 server must state each result's `resultType`, and the SDK client refuses a
 *   result without one. Some servers leave it out while everything else is right; a direct
 *   2025 client never notices. On a 2026 connection such a result is read as the complete
 *   result it evidently is (as the SDK's bridge reads every 2025 result).
 * - The SDK client dispatches a notification one microtask late but a response at once,
 *   and forgets the request's progress handler with the response: a progress notification
 *   that arrives in the same read as its response (the last one, over stdio) is dropped.
 *   Each response is handed on one microtask late, after the notifications before it.
 *
 * The proxy keeps the transport's own methods and `instanceof`, so the SDK client sees the
 * transport it was given.
 */
export function tolerantTransport<T extends Transport>(transport: T, { isModern, onRepaired }: ToleranceOptions): T {
  const repair = (message: JSONRPCMessage): JSONRPCMessage => {
    if (!isJSONRPCResultResponse(message) || 'resultType' in message.result || !isModern()) return message;
    onRepaired();
    return { ...message, result: { ...message.result, resultType: 'complete' } };
  };
  return new Proxy(transport, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value: unknown) {
      if (property !== 'onmessage' || typeof value !== 'function') return Reflect.set(target, property, value, target);
      const deliver = value as NonNullable<Transport['onmessage']>;
      const onmessage: Transport['onmessage'] = (message, extra) => {
        if (!isJSONRPCResponse(message)) return deliver(message, extra);
        queueMicrotask(() => deliver(repair(message), extra));
      };
      return Reflect.set(target, property, onmessage, target);
    },
  });
}

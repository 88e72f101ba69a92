import { isJSONRPCResultResponse, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { resultOf } from './plain-answer.js';

/** A result as the connection's revision requires it, or undefined when nothing is missing (`ChildWire.repair`). */
export type ResultRepair = (result: Record<string, unknown>) => Record<string, unknown> | undefined;

/** The response with its result repaired, or the message as it came. */
export function repairedMessage(message: JSONRPCMessage, repair: ResultRepair): JSONRPCMessage {
  // The schema is asked only when the message's shape does not settle it (the hot path asks none).
  const given = resultOf(message) ?? (isJSONRPCResultResponse(message) ? message.result : undefined);
  if (given === undefined) return message;
  const result = repair(given);
  return result === undefined ? message : { ...message, result };
}

/** Takes a response meant for a road outside the SDK client's (true: taken, the client never sees it). */
export type ResponseClaim = (response: JSONRPCMessage) => boolean;

/**
 * The SDK client's transport, as the hub reads a child through it, tolerant of two known
 * faults that would make the hub visible to its callers:
 *
 * - A child may leave out of its results what its revision requires while everything else
 *   is right (a direct client of the other revision never notices); the revision reads such
 *   a result as it evidently means (`repair`).
 * - The SDK client dispatches a notification one microtask late but a response at once,
 *   and forgets the request's progress handler with the response: a progress notification
 *   that arrives in the same read as its response (the last one, over stdio) is dropped.
 *   Each response is handed on one microtask late, after the notifications before it.
 *
 * The proxy keeps the transport's own methods and `instanceof`, so the SDK client sees the
 * transport it was given. `closed` hears the transport itself close, before whoever the
 * SDK client told: during a negotiation probe the client tells no one. `claim` is offered
 * each response first, at the moment the client would get it: the plain road's answers
 * (plain-call-client.ts) go straight to their callers, without the SDK client's dispatch,
 * which asks its schema library what each message is.
 */
export function tolerantTransport<T extends Transport>(transport: T, repair: ResultRepair, closed: () => void = () => undefined, claim: ResponseClaim = () => false): T {
  return new Proxy(transport, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value.bind(target) as unknown) : value;
    },
    set(target, property, value: unknown) {
      if (property === 'onclose' && typeof value === 'function') {
        const told = value as NonNullable<Transport['onclose']>;
        return Reflect.set(target, property, () => (closed(), told()), target);
      }
      if (property !== 'onmessage' || typeof value !== 'function') return Reflect.set(target, property, value, target);
      const deliver = value as NonNullable<Transport['onmessage']>;
      const onmessage: Transport['onmessage'] = (message, extra) => {
        // The transport hands on JSON-RPC messages only: those without a method are the responses.
        if ('method' in message) return deliver(message, extra);
        queueMicrotask(() => claim(message) || deliver(repairedMessage(message, repair), extra));
      };
      return Reflect.set(target, property, onmessage, target);
    },
  });
}

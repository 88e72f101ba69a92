import { isJSONRPCResultResponse, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

/**
 * A 2026-07-28 server must state each result's `resultType`, and the SDK client refuses
 * a result without one. Some servers leave it out of complete results while everything
 * else is right; a direct 2025 client never notices, so a gateway that refused them would
 * not be invisible. On a connection `isModern` says speaks 2026-07-28, such a result is
 * read as the complete result it evidently is (as the SDK's bridge reads every 2025
 * result), and `onRepaired` hears of it. The proxy keeps the transport's own methods and
 * `instanceof`, so the SDK client sees the transport it was given.
 */
export function completingResults<T extends Transport>(transport: T, isModern: () => boolean, onRepaired: () => void): T {
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
      const onmessage: Transport['onmessage'] = (message, extra) => deliver(repair(message), extra);
      return Reflect.set(target, property, onmessage, target);
    },
  });
}

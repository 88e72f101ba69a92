import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * Hands every complete message in `buffer` to `onMessage`. A line that is JSON but not
 * JSON-RPC goes to `onError` and the stream goes on, as the SDK's stdio transport does.
 */
export function readMessages(buffer: { readMessage(): JSONRPCMessage | null }, onMessage: ((message: JSONRPCMessage) => void) | undefined, onError: ((error: Error) => void) | undefined): void {
  for (;;) {
    let message: JSONRPCMessage | null;
    try {
      message = buffer.readMessage();
    } catch (error) {
      onError?.(error as Error);
      continue;
    }
    if (message === null) return;
    onMessage?.(message);
  }
}

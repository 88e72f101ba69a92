/**
 * A `subscriptions/listen` answer framed as newline-delimited JSON under
 * `application/json` (as the conformance suite's reference server frames it), re-framed
 * as the server-sent events the SDK's transport reads a stream from; any other answer is
 * returned as it is. The SDK reads an `application/json` answer whole, so a stream framed
 * that way would never be read. Written by hand: a few lines of re-framing, no library
 * does this.
 */
export function listenAsEvents(body: unknown, response: Response, maxMessageBytes: number): Response {
  if (response.body === null || !isListen(body) || !response.headers.get('content-type')?.startsWith('application/json')) return response;
  let pending = '';
  const reframe = new TransformStream<string, string>({
    transform(chunk, controller) {
      pending += chunk;
      let end = pending.indexOf('\n');
      let from = 0;
      let message = '';
      // A message may span lines (one pretty-printed answer): lines gather until they parse.
      while (end !== -1) {
        message += pending.slice(from, end + 1);
        from = end + 1;
        if (complete(message)) {
          controller.enqueue(event(message));
          message = '';
        }
        end = pending.indexOf('\n', from);
      }
      pending = message + pending.slice(from);
      if (pending.length > maxMessageBytes) controller.error(new Error(`a message on the listen stream is larger than ${maxMessageBytes} bytes`));
    },
    flush(controller) {
      if (complete(pending)) controller.enqueue(event(pending));
    },
  });
  const headers = new Headers(response.headers);
  headers.set('content-type', 'text/event-stream');
  headers.delete('content-length');
  const stream = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(reframe).pipeThrough(new TextEncoderStream());
  return new Response(stream, { status: response.status, statusText: response.statusText, headers });
}

/** Whether a request body is a `subscriptions/listen`. */
export function isListen(body: unknown): boolean {
  if (typeof body !== 'string' || !body.includes('subscriptions/listen')) return false;
  try {
    return (JSON.parse(body) as { method?: unknown }).method === 'subscriptions/listen';
  } catch {
    return false;
  }
}

function complete(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function event(message: string): string {
  return `event: message\ndata: ${JSON.stringify(JSON.parse(message))}\n\n`;
}

import { ProtocolError, ReadBuffer, StreamableHTTPClientTransport, type JSONRPCMessage, type JSONRPCResultResponse } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import t from 'tap';
import { plainToolAnswer } from '../../../core/children/client/plain-answer.js';
import { PlainCallClient } from '../../../core/children/client/plain-call-client.js';
import { PlainReadBuffer } from '../../../core/children/client/plain-read-buffer.js';
import { repairedMessage } from '../../../core/children/client/tolerant-transport.js';
import { createChildWire as legacyWire } from '../../../plugins/mcp-2025-11-25/child-wire.js';
import { createChildWire as modernWire } from '../../../plugins/mcp-2026-07-28/child-wire.js';
import { REVISIONS } from '../../helpers/clients.js';

// Issue 26, item 4: the one decoder of a child's tool answer reads the commonest answer by
// hand, and every answer as the SDK's codec reads it: the same result, the same refusals.

/** The SDK's own reading of a tool answer after the revision's repair, as the decoder read every answer before (the test's oracle). */
class Inspected extends PlainCallClient {
  bySdk(message: JSONRPCMessage): unknown {
    if ('error' in message) throw ProtocolError.fromError(message.error.code, message.error.message, message.error.data);
    const { result } = repairedMessage(message, this.repair) as JSONRPCResultResponse;
    const codec = this._wireCodec();
    const decoded = codec.decodeResult('tools/call', result);
    if (decoded.kind === 'invalid') throw decoded.error;
    if (decoded.kind === 'input_required') return result;
    const checked = codec.validateResult('tools/call', decoded.result);
    if (!checked.ok) throw new Error(`Invalid result for tools/call: ${checked.reason === 'invalid' ? checked.message : 'not-in-era: tools/call'}`);
    return checked.value;
  }
}

async function connected(t: { teardown(fn: () => unknown): void }, revision: string): Promise<Inspected> {
  const handler = createMcpHandler(() => new McpServer({ name: 'nothing', version: '1' }));
  const client = new Inspected({ name: 'test', version: '1' }, { versionNegotiation: { mode: revision === '2025-11-25' ? 'legacy' : { pin: revision } } });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://decoder.invalid/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
  // What connectClient sets: the negotiated revision's repair and plain reading.
  const wire = revision === '2025-11-25' ? legacyWire() : modernWire(revision);
  client.repair = (result) => wire.repair(result);
  client.unwrap = (result) => wire.plainResult?.(result);
  t.teardown(async () => {
    await client.close();
    await handler.close();
  });
  return client;
}

const text = (value: string) => ({ type: 'text', text: value });
/** Answers read by hand: text content, an isError flag. */
const COMMON = [
  { content: [text('a')] },
  { content: [text('a'), text('b')], isError: false },
  { content: [text('')], isError: true },
  { content: [] },
  { content: [text('a')], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' } } },
  { content: [text('a')], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1', title: 'X' } } },
];
/** Answers left to the codec, valid or not. */
const OTHERS = [
  { content: [{ ...text('a'), annotations: { priority: 1 } }] },
  { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
  { content: [text('a')], structuredContent: { value: 1 } },
  { content: [text('a')], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x' } } },
  { content: [text('a')], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1', icons: [] } } },
  { content: [text('a')], _meta: { other: 1 } },
  { content: [text('a')], _meta: 'not an object' },
  { content: [text('a')], extra: 1 },
  { content: [{ ...text('a'), extra: 1 }] },
  { content: 'not a list' },
  { content: [{ type: 'text', text: 5 }] },
  { content: [text('a')], isError: 'yes' },
  { isError: true },
  {},
];

const outcome = (read: () => unknown) => {
  try {
    return { value: read() };
  } catch (error) {
    return { thrown: (error as Error).constructor.name, message: (error as Error).message };
  }
};

for (const revision of REVISIONS) {
  t.test(`${revision}: the decoder answers as the SDK's codec does, reading the commonest answers by hand`, async (t) => {
    const client = await connected(t, revision);
    const modern = revision === '2026-07-28';
    const answers = [...COMMON, ...OTHERS].flatMap((result) =>
      modern ? [{ ...result, resultType: 'complete' }, result, { ...result, resultType: 'elsewhere' }] : [result, { ...result, resultType: 'complete' }],
    );
    for (const [index, result] of answers.entries()) {
      const message = { jsonrpc: '2.0', id: `hub-${index}`, result } as JSONRPCMessage;
      const mine = outcome(() => client.decodeToolAnswer(message));
      const sdk = outcome(() => client.bySdk(message));
      if ('thrown' in sdk) t.match(mine, { message: sdk.message }, `${JSON.stringify(result)}: refused alike`);
      else t.same(mine, sdk, `${JSON.stringify(result)}: the same result`);
    }
    for (const result of COMMON) {
      const message = { jsonrpc: '2.0', id: 'hub-1', result: modern ? { ...result, resultType: 'complete' } : result } as JSONRPCMessage;
      t.ok(plainToolAnswer(message, client.repair, client.unwrap), `${JSON.stringify(result)} is read without the schema library`);
    }
    const error = { jsonrpc: '2.0', id: 'hub-2', error: { code: -32602, message: 'Unknown tool: nope' } } as JSONRPCMessage;
    t.same(
      outcome(() => client.decodeToolAnswer(error)),
      outcome(() => client.bySdk(error)),
      "the child's error, as the same protocol error",
    );
  });
}

t.test("the plain read buffer frames, reads and refuses a child's lines as the SDK's does", async (t) => {
  const lines = [
    { jsonrpc: '2.0', id: 'hub-1', result: { content: [text('a')] } },
    { jsonrpc: '2.0', id: 7, result: { content: [text('a')], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' } } } },
    { jsonrpc: '2.0', id: 'hub-2', result: { content: [text('a')], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 5 } } } },
    { jsonrpc: '2.0', id: 'hub-3', error: { code: -32602, message: 'no' } },
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
    { jsonrpc: '2.0', id: 1.5, result: {} },
    { jsonrpc: '2.0', id: 'x', result: {}, extra: true },
    { id: 'x', result: {} },
  ].map((message) => JSON.stringify(message));
  const text$ = `${lines.slice(0, 4).join('\n')}\nnot json\r\n${lines.slice(4).join('\r\n')}\n{"jsonrpc":"2.0","id":"cut`;
  const outcomes = (buffer: { append(chunk: Buffer): void; readMessage(): unknown }) => {
    const bytes = Buffer.from(text$);
    // In pieces, so that lines span chunks.
    for (let at = 0; at < bytes.length; at += 37) buffer.append(bytes.subarray(at, at + 37));
    const read: unknown[] = [];
    for (;;) {
      try {
        const message = buffer.readMessage();
        if (message === null) return read;
        read.push(message);
      } catch (error) {
        read.push({ refused: (error as Error).message });
      }
    }
  };
  t.same(outcomes(new PlainReadBuffer()), outcomes(new ReadBuffer()), 'the same messages and refusals, in order');
});

t.test('the plain read buffer refuses a line over its bound with a coded error, and starts afresh', async (t) => {
  const buffer = new PlainReadBuffer(16);
  buffer.append(Buffer.from('{"jsonrpc":'));
  t.throws(() => buffer.append(Buffer.from('"2.0","id":1,"result":{}}\n')), { code: 'HUB_ERR_ANSWER_TOO_LARGE' });
  t.equal(buffer.readMessage(), null, 'what came before the refusal is dropped');
  buffer.append(Buffer.from('{"id":1}\n'));
  t.throws(() => buffer.readMessage(), 'the next line is read on its own');
});

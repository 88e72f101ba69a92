import type { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import t from 'tap';
import { batchedSend } from '../../../core/children/client/batched-send.js';
import { CallCancellation } from '../../../core/children/client/call-cancel.js';
import type { Hub } from '../../../core/hub.js';
import { startTestHub } from '../../helpers/hub.js';
import { echoMetaEntry } from '../../plugins/observability/helpers.js';

// Issue 26, item 4: the messages written to one child within a turn of the event loop go
// out in one write (one system call, one wake-up of the child), not one each.

const notification = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

function recording(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
  });
  return { stream, writes };
}

t.test('the messages of one turn go out in one write, in order; a later one in a write of its own', async (t) => {
  const { stream, writes } = recording();
  const send = batchedSend(
    () => stream,
    () => new Error('closed'),
  );
  await Promise.all([0, 1, 2, 3, 4].map((n) => send(notification(n))));
  t.equal(writes.length, 1, 'one write for five messages');
  t.same(
    writes[0]
      ?.split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { params: { n: number } }).params.n),
    [0, 1, 2, 3, 4],
    'one line each, in order',
  );
  await send(notification(5));
  t.equal(writes.length, 2);
});

t.test('without a stream to write to, every message of the batch is refused with the given error', async (t) => {
  const send = batchedSend(
    () => undefined,
    () => new Error('the connection is closed'),
  );
  const results = await Promise.allSettled([send(notification(0)), send(notification(1))]);
  t.same(
    results.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : 'sent')),
    ['the connection is closed', 'the connection is closed'],
  );
  const { stream } = recording();
  stream.end();
  await t.rejects(
    batchedSend(
      () => stream,
      () => new Error('ended'),
    )(notification(2)),
    { message: 'ended' },
    'nor to an ended one',
  );
});

t.test('`post` batches with `send` in order and hears only a failure', async (t) => {
  const { stream, writes } = recording();
  const send = batchedSend(
    () => stream,
    () => new Error('closed'),
  );
  const failures: string[] = [];
  send.post(notification(0), (error) => failures.push(error.message));
  const sent = send(notification(1));
  send.post(notification(2), (error) => failures.push(error.message));
  await sent;
  t.same(
    writes
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { params: { n: number } }).params.n),
    [0, 1, 2],
    'one write of the three, in the order given',
  );
  t.equal(writes.length, 1);
  t.same(failures, [], 'a write that succeeds calls no failure listener');

  const closed = batchedSend(
    () => undefined,
    () => new Error('the connection is closed'),
  );
  const heard = new Promise<string>((resolve) => closed.post(notification(3), (error) => resolve(error.message)));
  const refused = closed(notification(4)).then(
    () => 'sent',
    (error: unknown) => (error as Error).message,
  );
  t.same(await Promise.all([heard, refused]), ['the connection is closed', 'the connection is closed'], 'a failed batch reaches `post` and `send` alike');

  const failing = new Writable({
    write(_chunk, _encoding, done) {
      done(new Error('EPIPE'));
    },
  });
  failing.on('error', () => undefined);
  const broken = batchedSend(
    () => failing,
    () => new Error('closed'),
  );
  t.equal(await new Promise<string>((resolve) => broken.post(notification(5), (error) => resolve(error.message))), 'EPIPE', "the stream's write error reaches `post`");
});

t.test('a stdio child gets the calls made in one turn in one pipe write', async (t) => {
  let kernel: Hub | undefined;
  await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() } }, kernel: (created) => void (kernel = created) });
  const child = kernel?.children.get('meta');
  if (!child) throw new Error('no child');
  const { writes, answers } = await child.withConnection(async (connection) => {
    const stdin = (connection.client.transport as unknown as { _process: ChildProcess })._process.stdin;
    if (!stdin || !connection.plainToolCall) throw new Error('no stdin or no plain road');
    const write = stdin.write.bind(stdin);
    let count = 0;
    stdin.write = ((...args: Parameters<typeof write>) => {
      count += 1;
      return write(...args);
    }) as typeof write;
    try {
      const plainToolCall = connection.plainToolCall;
      const answers = await Promise.all(Array.from({ length: 8 }, () => plainToolCall({ name: 'echo_meta', arguments: {} }, new CallCancellation())));
      return { writes: count, answers };
    } finally {
      stdin.write = write;
    }
  });
  t.equal(answers.length, 8);
  t.ok(
    answers.every((answer) => (answer as { content?: Array<{ type: string }> } | undefined)?.content?.[0]?.type === 'text'),
    'every call answered',
  );
  t.equal(writes, 1, 'eight calls, one write');
});

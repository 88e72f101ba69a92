import { randomInt } from 'node:crypto';
import t from 'tap';
import { limitResult } from '../../../plugins/output-limit/limit.js';

// Issue 54.4: output-limit passes a result of text blocks without writing it as JSON when a
// bound above its size is within the cap. Every text here takes the most JSON a character
// can (a control character is six bytes, `\u0001`), one byte over the cap once framed: the
// bound must see it over, and the result is cut; one character fewer, it passes whole.

const tool = { name: 'echo', inputSchema: { type: 'object' as const } };
const FRAMING = Buffer.byteLength(JSON.stringify({ type: 'text', text: '' }));
/** A text of `length` control characters other than the four JSON writes in two bytes (\b \t \n \f \r are five). */
const worst = (length: number) => Array.from({ length }, () => String.fromCharCode([1, 2, 3, 4, 5, 6, 7, 11, 14, 15, 16, 31][randomInt(12)] as number)).join('');

t.test('a text whose JSON is one byte over the cap is cut; one character shorter, it is whole', async (t) => {
  for (const blocks of [1, 3]) {
    const maxBytes = 1024 * (1 + randomInt(4));
    // Every block but the last fills its share; the last brings the total just over.
    const share = Math.floor(maxBytes / blocks);
    const lengths = Array.from({ length: blocks }, () => Math.floor((share - FRAMING) / 6));
    const fixed = lengths.slice(0, -1).reduce((sum, length) => sum + FRAMING + 6 * length, 0);
    const last = Math.floor((maxBytes - fixed - FRAMING) / 6) + 1;
    lengths[blocks - 1] = last;
    const over = { content: lengths.map((length) => ({ type: 'text' as const, text: worst(length) })) };
    const bytes = over.content.reduce((sum, block) => sum + Buffer.byteLength(JSON.stringify(block)), 0);
    t.ok(bytes > maxBytes && bytes <= maxBytes + 6, `${blocks} block(s): ${bytes} bytes against a cap of ${maxBytes}`);
    t.ok(limitResult(over, maxBytes, tool), `${blocks} block(s) over the cap by ${bytes - maxBytes} bytes: cut`);
    const whole = { content: over.content.map((block, index) => (index === blocks - 1 ? { ...block, text: block.text.slice(1) } : block)) };
    t.equal(limitResult(whole, maxBytes, tool), undefined, `${blocks} block(s) one character shorter (${bytes - 6} bytes): whole`);
  }
});

t.test('a text that is no string, and fields beside the content, are counted as JSON', async (t) => {
  const list = { content: [{ type: 'text', text: ['x'.repeat(3000)] }] } as unknown as Parameters<typeof limitResult>[0];
  // Counted exactly, it is over; the plugin may fail on it (the pipeline then fails the call closed), never pass it whole.
  let whole: boolean;
  try {
    whole = limitResult(list, 1024, tool) === undefined;
  } catch {
    whole = false;
  }
  t.notOk(whole, 'an array of 3,000 characters where the text should be does not pass whole');
  const meta = { content: [{ type: 'text' as const, text: 'short' }], _meta: { note: 'm'.repeat(3000) } };
  t.ok(limitResult(meta, 1024, tool), '_meta over the cap beside a short text is counted');
});

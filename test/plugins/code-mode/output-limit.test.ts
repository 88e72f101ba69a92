import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { createPeople } from '../../fixtures/servers/directory.js';
import type { Hub } from '../../../core/hub.js';
import { runProgram, textOf } from './helpers.js';

const MAX_BYTES = 2048;
/** A program whose answer is larger than the cap: it prints 8 KB. */
const LOUD = "console.log('x'.repeat(8192)); return 1;";
const QUIET = "console.log('hello'); return 1;";

async function codeHub(t: { teardown(fn: () => unknown): void }, plugins: Record<string, unknown>) {
  return startTestHub(t, {
    kernel: (kernel: Hub) => kernel.children.addInProcess('people', createPeople),
    config: { plugins: { 'map-tools': false, 'code-mode': true, ...plugins } },
  });
}

t.test("output-limit caps run_code's own answer, on both revisions", async (t) => {
  const { url } = await codeHub(t, { 'output-limit': { maxBytes: MAX_BYTES } });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    const loud = await runProgram(client, LOUD);
    t.equal(loud.isError, true, `${revision}: an answer over the cap is a tool error`);
    t.match(textOf(loud), /plugin "output-limit"/, `${revision}: naming the plugin`);
    t.match(textOf(loud), new RegExp(`limit of ${MAX_BYTES} bytes`), `${revision}: and the cap`);
    t.equal(loud.structuredContent, undefined, `${revision}: no cut structure reaches the caller`);
    const quiet = await runProgram(client, QUIET);
    t.notOk(quiet.isError, `${revision}: an answer under the cap is the program's`);
    t.match(quiet.structuredContent, { output: 'hello\n' }, `${revision}: as it printed it`);
  }
});

t.test('without output-limit the same program answers in full', async (t) => {
  const { url } = await codeHub(t, {});
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  const loud = await runProgram(client, LOUD);
  t.notOk(loud.isError, 'the program ran');
  t.ok(JSON.stringify(loud.structuredContent).length > 8192, 'all it printed is in the answer');
});

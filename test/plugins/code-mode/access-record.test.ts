import t from 'tap';
import type { Hub } from '../../../core/hub.js';
import { createOrders, createPeople } from '../../fixtures/servers/directory.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { runProgram } from './helpers.js';

t.test("run_code's access record names run_code and lists the calls its program made", async (t) => {
  const logs: string[] = [];
  const { url, hub } = await startTestHub(t, {
    kernel: (kernel: Hub) => {
      kernel.children.addInProcess('people', createPeople);
      kernel.children.addInProcess('orders-db', createOrders);
    },
    config: { plugins: { 'map-tools': false, 'code-mode': true } },
    logs,
  });
  await hub.children.get('people')?.ensureUp();
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  await runProgram(client, "await servers.people.list_people();\ntry { await servers['orders-db'].refuse(); } catch {}\nreturn 1;");
  let record: Record<string, unknown> | undefined;
  // The line is written when the response closes, which the client may hear of first.
  while (!record) {
    record = logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'request' && Array.isArray(line.codeModeCalls));
    if (!record) await new Promise((resolve) => setImmediate(resolve));
  }
  t.equal(record.tool, 'run_code', 'the record is the run_code call, not one of its calls');
  t.equal(record.server, undefined, 'no server is named for the run itself');
  t.same(record.codeModeCalls, ['people.list_people:ok', 'orders-db.refuse:tool_error']);
});

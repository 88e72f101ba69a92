import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { Hub } from '../../../core/hub.js';
import { createOrders, createPeople } from '../../fixtures/servers/directory.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { startTestHub, type TestHub } from '../../helpers/hub.js';

/** A hub with code mode on (with `options`) and three in-process servers: people, orders-db and sink. */
export async function startCodeHub(t: { teardown(fn: () => unknown): void }, options: Record<string, unknown> = {}): Promise<TestHub> {
  const started = await startTestHub(t, {
    kernel: (hub: Hub) => {
      hub.children.addInProcess('people', createPeople);
      hub.children.addInProcess('orders-db', createOrders);
      hub.children.addInProcess('sink', createKitchenSink);
    },
    config: { plugins: { 'map-tools': false, 'code-mode': options } },
  });
  await Promise.all(['people', 'orders-db', 'sink'].map((name) => started.hub.children.get(name)!.ensureUp()));
  return started;
}

/** Runs a program through run_code. */
export async function runProgram(client: Client, code: string, options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
  return await client.callTool({ name: 'run_code', arguments: { code } }, options.signal ? { signal: options.signal } : undefined);
}

/** The text of a result's first block. */
export function textOf(result: CallToolResult): string {
  const [block] = result.content;
  return block?.type === 'text' ? block.text : '';
}

/** The structured answer of a run that ended well. */
export interface RunAnswer {
  output: string;
  value?: unknown;
  calls: { server: string; tool: string; outcome: string; durationMs: number }[];
}

import type { Test } from 'tap';
import type { Client } from '@modelcontextprotocol/client';
import type { Hub } from '../../../core/hub.js';
import { startTestHub } from '../../helpers/hub.js';
import { startFakeServices, type FakeServices } from './fakes/services.js';

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

export interface ToolCaller {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** The structured result of a call that must succeed. */
  ok(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The error text of a call that must fail. */
  fail(name: string, args: Record<string, unknown>): Promise<string>;
}

export interface MapUnderTest extends ToolCaller {
  fake: FakeServices;
}

/** A hub with the map-tools plugin, its services pointed at local fakes; the `map` child's client. */
export async function startMap(t: Test, env: Record<string, string> = {}, fakeOptions: { overpassDelayMs?: number } = {}): Promise<MapUnderTest> {
  const fake = await startFakeServices(t, fakeOptions);
  const { hub } = await startTestHub(t, { config: { plugins: { 'map-tools': { env: fake.env(env) } } } });
  return { fake, ...(await mapCaller(hub)) };
}

/**
 * A hub whose map tools answer offline from an extract (`MAP_OSM_FILE`), with no service
 * configured at all; its log lines are collected in `logs` when given.
 */
export async function startOfflineMap(t: Test, file: string, logs?: string[]): Promise<ToolCaller & { hub: Hub }> {
  const { hub } = await startTestHub(t, { config: { plugins: { 'map-tools': true } }, env: { MAP_OSM_FILE: file }, ...(logs && { logs }) });
  return { hub, ...(await mapCaller(hub)) };
}

async function mapCaller(hub: Hub): Promise<ToolCaller> {
  const child = hub.children.get('map');
  if (!child) throw new Error('the map child is missing');
  const client = await child.ensureUp();
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
  return {
    client,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
      return result.structuredContent ?? {};
    },
    async fail(name, args) {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} succeeded unexpectedly: ${JSON.stringify(result.structuredContent)}`);
      return result.content[0]?.text ?? '';
    },
  };
}

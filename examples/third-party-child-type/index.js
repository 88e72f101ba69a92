// A third-party hub plugin, loaded by path or package name from the config's `plugins`.
// It adds the child type "canned": a server whose tools each answer a fixed text, e.g.
//   "mcpServers": { "faq": { "type": "canned", "tools": { "opening_hours": "9 to 5" } } }
// It touches nothing in the hub's core: it fills the child-type registry the hub hands it.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { Type } from 'typebox';

const CannedEntry = Type.Object(
  {
    tools: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), Type.String(), { description: 'Tool name -> the text it answers.' }),
    title: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** @param {string} name @param {{ tools: Record<string, string>, title?: string }} entry */
function cannedServer(name, entry) {
  const server = new McpServer({ name, title: entry.title ?? name, version: '1.0.0' });
  for (const [tool, text] of Object.entries(entry.tools)) {
    server.registerTool(tool, { description: `Answers: ${text}` }, async () => ({ content: [{ type: 'text', text }] }));
  }
  return server;
}

/** @type {import('../../core/children/child-type.js').ChildType} */
const cannedType = {
  type: 'canned',
  entrySchema: CannedEntry,
  alwaysRunning: () => true,
  snapshots: false,
  async connect(entry, context) {
    const server = cannedServer(context.name, /** @type {any} */ (entry));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'mcp-hub', version: '1' });
    client.onclose = () => context.onClosed('the canned server closed');
    await client.connect(clientSide);
    return {
      client,
      async close() {
        await client.close();
        await server.close();
      },
    };
  },
};

export default {
  name: 'canned-child-type',
  description: 'Adds the "canned" child type: tools that answer fixed texts.',
  options: Type.Object({}, { additionalProperties: false }),
  register(_app, _options, hub) {
    hub.childTypes.add(cannedType.type, cannedType, 'canned-child-type');
  },
};

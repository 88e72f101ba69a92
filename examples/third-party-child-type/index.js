// A third-party hub plugin, published as a package of its own and loaded by its package
// name (or a path) from the config's `plugins`. It adds the child type "canned": a server
// whose tools each answer a fixed text, e.g.
//   "mcpServers": { "faq": { "type": "canned", "tools": { "opening_hours": "9 to 5" } } }
// It imports the hub only through the published plugin surface, `mcp-switchyard/plugin`.
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { definePlugin } from 'mcp-switchyard/plugin';
import { connectClient } from 'mcp-switchyard/plugin/child-type';
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

/** @type {import('mcp-switchyard/plugin/child-type').ChildType} */
const cannedType = {
  type: 'canned',
  entrySchema: CannedEntry,
  alwaysRunning: () => true,
  snapshots: false,
  async connect(entry, context) {
    const server = cannedServer(context.name, /** @type {{ tools: Record<string, string>, title?: string }} */ (entry));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    // The kernel's helper: honours the start's abort signal and reports an unasked close.
    const connection = await connectClient(clientSide, context, { clientInfo: { name: 'canned-client', version: '1.0.0' }, negotiation: 'auto' });
    return {
      client: connection.client,
      async close() {
        await connection.close();
        await server.close();
      },
    };
  },
};

export default definePlugin({
  name: 'canned-child-type',
  description: 'Adds the "canned" child type: tools that answer fixed texts.',
  options: Type.Object({}, { additionalProperties: false }),
  register(_app, _options, hub) {
    hub.childTypes.add(cannedType.type, cannedType);
  },
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server, type Tool } from '@modelcontextprotocol/server';

/** test/fixtures/tool-search in the source tree (JSON is not copied to dist). */
export const CORPUS_FOLDER = fileURLToPath(new URL('../../../../test/fixtures/tool-search/', import.meta.url));

export interface ServerFixture {
  server: string;
  package: string;
  tools: Tool[];
}

export interface JudgedQuery {
  query: string;
  expected: string[];
  acceptable?: string[];
}

/** The real tool lists of public MCP servers (see the folder's README). */
export function corpus(): ServerFixture[] {
  const folder = join(CORPUS_FOLDER, 'tools');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as ServerFixture);
}

export function judgedQueries(): JudgedQuery[] {
  return (JSON.parse(readFileSync(join(CORPUS_FOLDER, 'queries.json'), 'utf8')) as { queries: JudgedQuery[] }).queries;
}

/** An in-process server that lists `tools` verbatim, as the real server did (its calls are not needed). */
export function listingServer(fixture: ServerFixture): () => Server {
  return () => {
    const server = new Server({ name: fixture.package, version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools: fixture.tools }));
    return server;
  };
}

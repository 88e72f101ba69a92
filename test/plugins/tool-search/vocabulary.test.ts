import t from 'tap';
import { corpusHub } from './corpus-hub.js';
import { hits, search } from './helpers.js';
import { REVISIONS } from '../../helpers/clients.js';

/*
 * Issue 56: the vocabulary bridge. Each query asks in a word the right tool does not use
 * (its name, title and description have no form of it); search_tools on /hub, with every
 * server of the catalog behind a real hub, finds the tool among the first three and says
 * through which word it matched. Where a tool of another server says the very word, the
 * query names the server, as an agent that knows it would. The "customer" →
 * contact is not here: Porter stems "customer" to "custom", which HubSpot's tools say
 * ("custom objects"), so no query with "customer" shares no word with them.
 */
const BRIDGES: { query: string; server?: string; right: string[]; asked: string; found: RegExp }[] = [
  { query: 'remember that I prefer tea', right: ['memory/add_observations', 'memory/create_entities'], asked: 'remember', found: /^(observation|memory) \(for remember\)$/ },
  { query: 'forget that fact', right: ['memory/delete_observations', 'memory/delete_entities', 'memory/delete_relations'], asked: 'forget', found: /^delete \(for forget\)$/ },
  { query: 'make a new folder', right: ['filesystem/create_directory', 'desktop-commander/create_directory'], asked: 'folder', found: /^directory \(for folder\)$/ },
  { query: 'show me a picture from disk', server: 'filesystem', right: ['filesystem/read_media_file'], asked: 'picture', found: /^image \(for picture\)$/ },
  { query: 'shelve my work in progress', right: ['git/git_stash'], asked: 'shelve', found: /^stash \(for shelve\)$/ },
  { query: 'undo my last commit', right: ['git/git_reset'], asked: 'undo', found: /^reset \(for undo\)$/ },
  { query: 'driving directions', server: 'map', right: ['map/route', 'map/route_matrix'], asked: 'directions', found: /^route \(for directions\)$/ },
];

for (const revision of REVISIONS) {
  t.test(`${revision}: a query in other words than the tool's finds it, and says through which word`, async (t) => {
    const { client } = await corpusHub(t, revision);
    for (const bridge of BRIDGES) {
      const answer = await search(t, client, bridge.query, { limit: 3, ...(bridge.server !== undefined && { server: bridge.server }) });
      const found = answer.tools.find((tool) => bridge.right.includes(`${tool.server}/${tool.tool}`));
      t.ok(found, `"${bridge.query}": ${bridge.right.join(' or ')} among the first three (got ${hits(answer).join(', ')})`);
      t.ok(
        found?.matched.some((word) => bridge.found.test(word)),
        `"${bridge.query}": matched through "${bridge.asked}" (${found?.matched.join(', ')})`,
      );
    }
  });
}

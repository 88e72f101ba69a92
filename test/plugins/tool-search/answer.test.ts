import t from 'tap';
import { corpusHub } from './corpus-hub.js';
import { search } from './helpers.js';
import { REVISIONS } from '../../helpers/clients.js';
import { structuredMeta } from '../meta-tools/helpers.js';

/*
 * Issue 56: what a model needs in one call. Each hit names its server and tool as
 * get_tool_schema and call_tool take them (`server`, `tool`), with a title, one line of
 * description and the words it matched; a search that finds nothing says what it searched
 * and points to list_servers; a limit over the maximum is lowered, with a notice, not refused.
 */
for (const revision of REVISIONS) {
  t.test(`${revision}: hits, an empty answer and a limit over the maximum`, async (t) => {
    const { client, toolCount, serverCount } = await corpusHub(t, revision);

    const answer = await search(t, client, 'create a directory', { limit: 3 });
    t.equal(answer.tools.length, 3, 'three hits');
    for (const hit of answer.tools) {
      t.type(hit.server, 'string', `${hit.server}/${hit.tool}: server`);
      t.type(hit.title, 'string', `${hit.server}/${hit.tool}: title`);
      t.notOk(hit.description.includes('\n'), `${hit.server}/${hit.tool}: one line of description`);
      t.ok(hit.description.length <= 120, `${hit.server}/${hit.tool}: at most 120 characters`);
      t.ok(hit.matched.length > 0, `${hit.server}/${hit.tool}: the words that matched (${hit.matched.join(', ')})`);
    }
    const best = answer.tools[0];
    t.ok(best && ['filesystem', 'desktop-commander'].includes(best.server) && best.tool === 'create_directory', 'create_directory first');
    t.same(best?.matched.sort(), ['create', 'directory'], 'matched on both words');
    const schema = (await structuredMeta(t, client, 'get_tool_schema', { server: best?.server, tool: best?.tool })) as { name?: string; inputSchema?: unknown };
    t.equal(schema.name, 'create_directory', "get_tool_schema takes the hit's server and tool as they are");

    const nothing = await search(t, client, 'qwzxv plorkt');
    t.same(nothing.tools, [], 'no hit for words no tool has');
    t.match(nothing.notice, `No tool matched "qwzxv plorkt"`, 'the notice repeats the query');
    t.match(nothing.notice, `${toolCount} tools on ${serverCount} servers`, 'says how much was searched');
    t.match(nothing.notice, /list_servers/, 'and points to list_servers');

    const many = await search(t, client, 'file', { limit: 100 });
    t.equal(many.tools.length, 25, 'a limit of 100 returns the maximum, 25');
    t.match(many.notice, 'limit 100 is over the maximum, 25', 'with a notice');
    const within = await search(t, client, 'file', { limit: 25 });
    t.equal(within.notice, undefined, 'no notice within the maximum');
  });
}

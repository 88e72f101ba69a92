import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ToolIndex } from './tool-index.js';
import { MAX_LIMIT, MAX_QUERY_LENGTH } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { escapeHtml, pageWhenRefused } from '../../core/plugin/pages.js';

export const SEARCH_PATH = '/tool-search';
export const QUERY_FIELD = 'q';

const SearchQuery = Type.Object({ [QUERY_FIELD]: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH })) });

/**
 * `/tool-search`, behind the operator login: the search of `search_tools` over every
 * server (`hub: false` ones included: the operator sees them all). The status page shows
 * its search box (`OperatorPage.search`); the answer is a page of its own, with the box
 * again. Read from the index only: nothing is started.
 */
export async function registerSearchPage(app: FastifyInstance, hub: PluginHub, index: ToolIndex): Promise<void> {
  const { operator } = hub;
  await operator.pages(app, (context) => {
    const pages = context.withTypeProvider<TypeBoxTypeProvider>();
    const refused = pageWhenRefused((reply) => operator.sendPage(reply, 400, 'Tool search', `<p>The query is longer than ${MAX_QUERY_LENGTH} characters.</p>${form(hub, '')}`));
    pages.get(SEARCH_PATH, { onRequest: operator.requireSession, schema: { querystring: SearchQuery }, errorHandler: refused }, async (request, reply) => {
      const query = (request.query[QUERY_FIELD] ?? '').trim();
      if (query === '') return operator.sendPage(reply, 200, 'Tool search', form(hub, ''));
      const answer = index.search({ query, limit: MAX_LIMIT, reaches: () => true });
      const rows = answer.tools.map(
        (tool) =>
          `<tr><td>${escapeHtml(tool.server)}${hub.servers.get(tool.server)?.hidden ? ' <small>(hub: false)</small>' : ''}</td><td><code>${escapeHtml(
            tool.tool,
          )}</code></td><td class="num">${tool.score.toFixed(2)}</td><td>${escapeHtml(tool.description)}</td></tr>`,
      );
      const results =
        rows.length === 0
          ? '<p role="status">No tool matches.</p>'
          : `<table aria-label="Tools found"><thead><tr><th scope="col">Server</th><th scope="col">Tool</th><th scope="col" class="num">Score</th><th scope="col">Description</th></tr></thead><tbody>${rows.join(
              '\n',
            )}</tbody></table>`;
      const unsearched = (answer.notSearchable ?? []).map(({ server }) => `<li>${escapeHtml(server)}</li>`).join('');
      const notes = unsearched === '' ? '' : `<p>Not searched (never started, so their tools are not known; nothing was started to learn them):</p><ul>${unsearched}</ul>`;
      return operator.sendPage(reply, 200, `Tool search: ${query}`, `${form(hub, query)}${results}${notes}<p><a href="${escapeHtml(operator.url('/status'))}">Back to the status page</a></p>`, {
        wide: true,
      });
    });
  });
}

function form(hub: PluginHub, query: string): string {
  return `<form role="search" method="get" action="${escapeHtml(hub.operator.url(SEARCH_PATH))}"><label>Search tools <input type="search" name="${QUERY_FIELD}" value="${escapeHtml(
    query,
  )}" required maxlength="${MAX_QUERY_LENGTH}"></label> <button type="submit">Search</button></form>`;
}

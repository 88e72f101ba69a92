import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { referencePages, repositoryRoot } from '../../scripts/docs/reference.js';

// Issue 41: the reference pages are generated from the code (the settings' schema, the
// config schema, the plugins' manifests and options, the error codes, the metrics
// registry, the meta-tools a hub lists, each bin's --help). When code and committed page
// differ, this fails and `npm run docs` rewrites the page. The pages are made once: making
// them starts a hub and runs every bin.
const pages = await referencePages();

t.test('docs/reference/ is what `npm run docs` makes of the code', async (t) => {
  t.same([...pages.keys()].sort(), [
    'docs/reference/cli.md',
    'docs/reference/config-file.md',
    'docs/reference/environment.md',
    'docs/reference/error-codes.md',
    'docs/reference/meta-tools.md',
    'docs/reference/metrics.md',
    'docs/reference/plugins.md',
  ]);
  for (const [path, expected] of pages) {
    const committed = await readFile(join(repositoryRoot, path), 'utf8').catch(() => '(missing)');
    t.equal(committed, expected, `${path} is up to date (run npm run docs)`);
  }
});

t.test('the generated pages name every setting, error code, metric and bin the hub has', async (t) => {
  const { SETTING_VARIABLES } = await import('../../core/config/settings.js');
  const { HUB_ERROR_CODES } = await import('../../core/errors.js');
  for (const variable of Object.values(SETTING_VARIABLES)) t.match(pages.get('docs/reference/environment.md'), `| \`${variable}\` |`, variable);
  for (const code of Object.values(HUB_ERROR_CODES)) t.match(pages.get('docs/reference/error-codes.md'), `| \`${code}\` |`, code);
  for (const metric of ['hub_tool_calls_total', 'hub_child_status', 'mcp_server_operation_duration_seconds']) t.match(pages.get('docs/reference/metrics.md'), `| \`${metric}\` |`, metric);
  for (const tool of ['list_servers', 'call_tool', 'describe_connection']) t.match(pages.get('docs/reference/meta-tools.md'), `## \`${tool}\``, tool);
  const { bin } = JSON.parse(await readFile(join(repositoryRoot, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  for (const name of Object.keys(bin)) t.match(pages.get('docs/reference/cli.md'), `\`${name}\``, name);
  t.match(pages.get('docs/reference/cli.md'), /Usage: hub-admin <group> <action>/, "hub-admin's own usage text");
});

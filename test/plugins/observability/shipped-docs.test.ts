import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parse } from 'yaml';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { everythingEntry } from './helpers.js';

/** docs/observability/ in the source tree (tests run from dist/test/...). */
const DOCS = fileURLToPath(new URL('../../../../docs/observability/', import.meta.url));

/** Labels Prometheus adds itself, or a histogram's bucket bound. */
const PROMETHEUS_LABELS = new Set(['instance', 'job', 'le']);

/** A command of Debian's `prometheus` package, run in docs/observability/. */
function promtool(...args: string[]) {
  const run = spawnSync('promtool', args, { cwd: DOCS, encoding: 'utf8' });
  return { error: run.error, status: run.status, output: `${run.stdout}${run.stderr}` };
}

interface AlertRules {
  groups: Array<{ rules: Array<{ alert: string; expr: string; annotations?: Record<string, string> }> }>;
}

interface Dashboard {
  panels: Array<{ type: string; targets?: Array<{ expr: string }> }>;
  templating: { list: Array<{ definition?: string }> };
}

/** The metric names and grouping labels a PromQL expression reads. */
function readBy(expr: string): { metrics: string[]; labels: string[] } {
  const metrics = [...expr.replace(/\bby \([^)]*\)/g, '').matchAll(/\b((?:hub|mcp|process|nodejs)_[a-z0-9_]+)\b/g)].map((match) => (match[1] ?? '').replace(/_bucket$/, ''));
  const labels = [...expr.matchAll(/\bby \(([^)]*)\)/g), ...expr.matchAll(/\{([^}]*)\}/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((part) => part.trim().split(/\s*[=!]~?\s*/)[0] ?? '')
      .filter((label) => label !== ''),
  );
  return { metrics, labels };
}

/** Metric names (histograms by their own name) and label names of a Prometheus exposition. */
function exported(text: string): { metrics: Set<string>; labels: Set<string> } {
  const metrics = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] ?? ''));
  const labels = new Set([...text.matchAll(/[{,]([a-zA-Z_]\w*)="/g)].map((match) => match[1] ?? ''));
  return { metrics, labels };
}

t.test('the alert rules pass promtool check and their unit tests (promtool test rules)', async (t) => {
  const checked = promtool('check', 'rules', 'alerts.yml');
  t.equal(checked.error, undefined, 'promtool runs (Debian package prometheus)');
  t.equal(checked.status, 0, checked.output);
  const tested = promtool('test', 'rules', 'alerts.test.yml');
  t.equal(tested.status, 0, tested.output);
  t.match(tested.output, /SUCCESS/);
  const config = promtool('check', 'config', '--syntax-only', 'prometheus.yml');
  t.equal(config.status, 0, `the example scrape config is valid: ${config.output}`);
  const rules = parse(await readFile(`${DOCS}alerts.yml`, 'utf8')) as AlertRules;
  const tests = await readFile(`${DOCS}alerts.test.yml`, 'utf8');
  for (const rule of rules.groups.flatMap((group) => group.rules)) {
    t.match(tests, new RegExp(`alertname: ${rule.alert}\\n\\s+exp_alerts:`), `${rule.alert} has a test in which it fires`);
  }
});

t.test('the alert rules and the Grafana dashboard read only metrics and labels the hub exports', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { everything: everythingEntry() }, plugins: { 'map-tools': false } } });
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  await client.callTool({ name: 'echo', arguments: { message: 'scraped' } });
  const { metrics, labels } = exported(await (await fetch(`${url}/metrics`)).text());

  const rules = parse(await readFile(`${DOCS}alerts.yml`, 'utf8')) as AlertRules;
  const dashboard = JSON.parse(await readFile(`${DOCS}grafana-dashboard.json`, 'utf8')) as Dashboard;
  const expressions = [
    ...rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr }))),
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `dashboard panel (${panel.type})`, expr: target.expr }))),
    ...dashboard.templating.list.flatMap((variable) => (variable.definition ? [{ where: 'dashboard variable', expr: variable.definition }] : [])),
  ];
  t.ok(expressions.length > 20, 'the dashboard has panels with queries');
  const unknownMetrics = new Set<string>();
  const unknownLabels = new Set<string>();
  for (const { where, expr } of expressions) {
    const read = readBy(expr);
    if (read.metrics.length === 0 && !expr.startsWith('up{')) unknownMetrics.add(`${where}: no hub metric in ${expr}`);
    for (const metric of read.metrics) if (!metrics.has(metric)) unknownMetrics.add(`${where}: ${metric}`);
    for (const label of read.labels) if (!labels.has(label) && !PROMETHEUS_LABELS.has(label)) unknownLabels.add(`${where}: ${label}`);
  }
  t.same([...unknownMetrics], [], 'every metric named is exported');
  t.same([...unknownLabels], [], 'every label grouped or matched on is exported');
});

// Issue 43, item 10: every shipped rule links to its runbook, a section of the troubleshooting docs.
t.test('every alert rule has a runbook_url naming its section of the troubleshooting docs', async (t) => {
  const rules = (parse(await readFile(`${DOCS}alerts.yml`, 'utf8')) as AlertRules).groups.flatMap((group) => group.rules);
  const troubleshooting = await readFile(new URL('../../../../docs/operations/troubleshooting.md', import.meta.url), 'utf8');
  // GitHub's anchors for the headings: lower case, punctuation other than - and _ dropped, spaces as -.
  const anchors = new Set(
    [...troubleshooting.matchAll(/^#+ (.+)$/gm)].map((match) =>
      (match[1] ?? '')
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
  );
  const page = 'https://github.com/mcp-switchyard/mcp-switchyard/blob/main/docs/operations/troubleshooting.md#';
  for (const rule of rules) {
    const url = rule.annotations?.runbook_url ?? '';
    t.ok(url.startsWith(page), `${rule.alert} links to the troubleshooting docs`);
    t.ok(anchors.has(url.slice(page.length)), `${rule.alert}'s anchor is a heading there (${url.slice(page.length)})`);
  }
  t.ok(
    rules.some((rule) => /hub_tools_withheld\b/.test(rule.expr)),
    'a rule fires on withheld tools',
  );
});

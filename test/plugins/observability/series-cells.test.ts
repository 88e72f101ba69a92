import { randomInt } from 'node:crypto';
import { Counter, Histogram, Registry, type RegistryContentType } from 'prom-client';
import t from 'tap';
import { DURATION_BUCKETS } from '../../../plugins/observability/metrics.js';
import { CellCounter, CellHistogram } from '../../../plugins/observability/series-cells.js';

/*
 * Issue 57: the metrics a tool call updates keep their series in cells of the hub's own,
 * which prom-client's registry writes out. What a scrape reads must be what prom-client's
 * own Counter and Histogram would have written for the same updates, byte for byte, in both
 * of the registry's formats; and what the status page reads (`get()`) the same values.
 */

const LABELS = ['server', 'tool', 'outcome', 'virtual_server'] as const;
type Name = (typeof LABELS)[number];

/** Both implementations side by side, each in a registry of its own. */
function pair(contentType: RegistryContentType = Registry.PROMETHEUS_CONTENT_TYPE) {
  const theirs = new Registry<RegistryContentType>();
  const ours = new Registry<RegistryContentType>();
  theirs.setContentType(contentType);
  ours.setContentType(contentType);
  const config = { name: 'calls_total', help: 'Calls, by "server" and\\or tool.\nSecond line.', labelNames: LABELS };
  const histogram = { name: 'call_seconds', help: 'Durations.', labelNames: LABELS, buckets: DURATION_BUCKETS };
  return {
    theirs,
    ours,
    counters: [new Counter({ ...config, labelNames: [...LABELS], registers: [theirs] }), new CellCounter({ ...config, registers: [ours] })] as const,
    histograms: [new Histogram({ ...histogram, labelNames: [...LABELS], buckets: [...DURATION_BUCKETS], registers: [theirs] }), new CellHistogram({ ...histogram, registers: [ours] })] as const,
  };
}

/** Labels from a small set, so that series repeat; a label is sometimes absent, and values hold the characters the text format escapes. */
function someLabels(): Partial<Record<Name, string>> {
  const pick = (values: readonly string[]) => values[randomInt(values.length)] as string;
  return {
    server: pick(['alpha', 'beta', 'we"ird\\name\n']),
    tool: pick(['echo', 'add', '(unlisted)']),
    outcome: pick(['ok', 'tool_error']),
    ...(randomInt(3) === 0 && { virtual_server: pick(['v1', 'v2']) }),
  };
}

/** A duration: mostly within the buckets, some on a bound exactly, some above the last. */
function someSeconds(): number {
  const kind = randomInt(10);
  if (kind === 0) return DURATION_BUCKETS[randomInt(DURATION_BUCKETS.length)] as number;
  if (kind === 1) return 121 + randomInt(1000);
  return randomInt(1, 2_000_000) / 1_000_000;
}

/** prom-client's `get()` values without the exemplar key its histograms add (always empty here). */
async function plainValues(metric: { get(): Promise<{ values: Array<{ value: number; labels: object; metricName?: string }> }> }) {
  return (await metric.get()).values.map(({ value, labels, metricName }) => ({ value, labels: { ...labels }, ...(metricName !== undefined && { metricName }) }));
}

for (const contentType of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE]) {
  t.test(`random updates, zeros and removals: the same text as prom-client's (${contentType.split(';')[0]})`, async (t) => {
    const { theirs, ours, counters, histograms } = pair(contentType);
    const made: Array<Partial<Record<Name, string>>> = [];
    for (let step = 0; step < 3000; step++) {
      const labels = someLabels();
      made.push(labels);
      const choice = randomInt(20);
      if (choice === 0) {
        counters[0].inc(labels, 0);
        counters[1].inc(labels, 0);
        histograms[0].zero(labels);
        histograms[1].zero(labels);
      } else if (choice === 1) {
        const gone = made[randomInt(made.length)] as Partial<Record<Name, string>>;
        counters[0].remove(gone);
        counters[1].remove(gone);
        histograms[0].remove(gone);
        histograms[1].remove(gone);
      } else {
        const by = randomInt(1, 4);
        counters[0].inc(labels, by);
        counters[1].inc(labels, by);
        const seconds = someSeconds();
        histograms[0].observe(labels, seconds);
        histograms[1].observe(labels, seconds);
      }
    }
    const text = await ours.metrics();
    t.equal(text.endsWith('# EOF\n'), contentType === Registry.OPENMETRICS_CONTENT_TYPE, 'in the format asked for');
    t.match(text, /calls_total\{server="alpha"/, 'series were written');
    t.match(text, /call_seconds_bucket\{le="\+Inf",server=/, 'with their buckets');
    t.equal(text, await theirs.metrics(), 'the exposition, byte for byte');
    t.same(await plainValues(counters[1]), await plainValues(counters[0]), "the counter's values as get() gives them");
    t.same(await plainValues(histograms[1]), await plainValues(histograms[0]), "the histogram's values as get() gives them");
    const asJson = async (registry: Registry<RegistryContentType>) =>
      (await registry.getMetricsAsJSON()).map(({ name, help, type, aggregator, values }) => ({ name, help, type, aggregator, values: values.map(({ value, labels }) => ({ value, labels })) }));
    t.same(await asJson(ours), await asJson(theirs), 'and the registry as JSON');
  });
}

t.test('a removed series is gone and the others stay; one made again starts afresh; reset empties the metric', async (t) => {
  const { ours, counters, histograms } = pair();
  const labels = { server: 'alpha', tool: 'echo', outcome: 'ok' };
  histograms[1].observe(labels, 0.002);
  counters[1].inc(labels);
  counters[1].inc({ ...labels, tool: 'add' });
  histograms[1].remove(labels);
  counters[1].remove(labels);
  counters[1].remove({ ...labels, tool: 'never' });
  t.same(
    (await counters[1].get()).values.map((value) => value.labels),
    [{ server: 'alpha', tool: 'add', outcome: 'ok' }],
    'the other series stays',
  );
  t.equal((await histograms[1].get()).values.length, 0, 'the histogram has no series');
  counters[1].inc(labels, 2);
  t.match(await ours.metrics(), /calls_total\{server="alpha",tool="echo",outcome="ok"\} 2\n/, 'a series made again starts from its new value');
  counters[1].reset();
  t.equal((await counters[1].get()).values.length, 0, 'reset: no series');
});

t.test('a duration that is not a finite number is left out, where prom-client would throw in the call path', async (t) => {
  const { histograms } = pair();
  const labels = { server: 'alpha', tool: 'echo', outcome: 'ok' };
  histograms[1].observe(labels, Number.NaN);
  histograms[1].observe(labels, Number.POSITIVE_INFINITY);
  t.equal((await histograms[1].get()).values.length, 0, 'no series was made');
  histograms[1].observe(labels, 0.5);
  const count = (await histograms[1].get()).values.find((value) => value.metricName === 'call_seconds_count');
  t.equal(count?.value, 1, 'the finite one is counted');
});

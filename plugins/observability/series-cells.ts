import type { Metric, Registry, RegistryContentType } from 'prom-client';

/** A series' labels: a name of the metric's `labelNames` to its value; an absent or undefined value is no label. */
export type SeriesLabels<Name extends string> = Readonly<Partial<Record<Name, string>>>;

/** What prom-client's registry reads of a metric to write it out, as its own metrics give it. */
interface SeriesValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
  sharedLabels?: Record<string, string>;
}

interface SeriesConfig<Name extends string> {
  name: string;
  help: string;
  labelNames: readonly Name[];
  registers: ReadonlyArray<Registry<RegistryContentType>>;
}

/*
 * The series of the metrics a tool call updates, kept in cells of the hub's own and written
 * out by prom-client's registry as it writes its own metrics (each class below gives the
 * registry what prom-client's Counter and Histogram give it, in the same order;
 * test/plugins/observability/series-cells.test.ts holds the text byte for byte to theirs).
 * Why not prom-client's classes: every `inc` and `observe` of theirs validates the labels
 * and builds a string of them to find the series, and a call updates six: 2.3 us of CPU
 * against 0.35 us for the cells (`node dist/bench/metric-updates.js`, issue 57). A cell is
 * found by walking a map per label value, which allocates nothing once the series exists.
 */
abstract class SeriesCells<Name extends string, Cell extends { readonly labels: Readonly<Record<string, string>> }> {
  /** Not read-only: the registry renames a counter (without `_total`) when it writes OpenMetrics. */
  name: string;
  readonly help: string;
  readonly aggregator = 'sum';
  /** As prom-client's metrics have them (the reference pages read them). */
  readonly labelNames: readonly Name[];
  /** One map per label, in `labelNames` order, keyed by its value (undefined when absent); the last holds the cell. */
  readonly #root = new Map<string | undefined, unknown>();
  /** Every cell, in the order its series began: the order prom-client writes its own. */
  protected readonly cells = new Set<Cell>();

  constructor(config: SeriesConfig<Name>) {
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    // prom-client's registry takes any object of its metrics' shape; its types name only its own classes.
    for (const registry of config.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The cell of the series `labels` names, made (at zero) if it does not exist yet. */
  protected cellOf(labels: SeriesLabels<Name>): Cell {
    let level = this.#root;
    const last = this.labelNames.length - 1;
    for (let index = 0; index < last; index++) {
      const value = labels[this.labelNames[index] as Name];
      let next = level.get(value) as Map<string | undefined, unknown> | undefined;
      if (next === undefined) level.set(value, (next = new Map()));
      level = next;
    }
    const value = labels[this.labelNames[last] as Name];
    let cell = level.get(value) as Cell | undefined;
    if (cell === undefined) {
      cell = this.newCell(this.#ownLabels(labels));
      level.set(value, cell);
      this.cells.add(cell);
    }
    return cell;
  }

  protected abstract newCell(labels: Readonly<Record<string, string>>): Cell;

  /** The series `labels` names goes, as prom-client's `remove`. */
  remove(labels: SeriesLabels<Name>): void {
    const path: Array<Map<string | undefined, unknown>> = [this.#root];
    for (const name of this.labelNames.slice(0, -1)) {
      const next = path.at(-1)?.get(labels[name]) as Map<string | undefined, unknown> | undefined;
      if (next === undefined) return;
      path.push(next);
    }
    const leaf = path.at(-1) as Map<string | undefined, unknown>;
    const key = labels[this.labelNames.at(-1) as Name];
    const cell = leaf.get(key) as Cell | undefined;
    if (cell === undefined) return;
    leaf.delete(key);
    this.cells.delete(cell);
    // Maps left empty go too, so that series of servers long removed leave nothing behind.
    for (let depth = path.length - 1; depth > 0 && (path[depth] as Map<unknown, unknown>).size === 0; depth--) {
      (path[depth - 1] as Map<unknown, unknown>).delete(labels[this.labelNames[depth - 1] as Name]);
    }
  }

  reset(): void {
    this.#root.clear();
    this.cells.clear();
  }

  /** The labels a cell keeps: the names given a value, in `labelNames` order. */
  #ownLabels(labels: SeriesLabels<Name>): Readonly<Record<string, string>> {
    const own: Record<string, string> = {};
    for (const name of this.labelNames) {
      const value = labels[name];
      if (value !== undefined) own[name] = value;
    }
    return Object.freeze(own);
  }
}

interface CounterCell {
  readonly labels: Readonly<Record<string, string>>;
  value: number;
}

/** A counter's series in cells of their own (see above). */
export class CellCounter<Name extends string> extends SeriesCells<Name, CounterCell> {
  readonly type = 'counter';

  /** Adds `by` (1 unless said, 0 to make the series exist) to the series `labels` names. */
  inc(labels: SeriesLabels<Name>, by = 1): void {
    this.cellOf(labels).value += by;
  }

  protected newCell(labels: Readonly<Record<string, string>>): CounterCell {
    return { labels, value: 0 };
  }

  async get(): Promise<{ name: string; help: string; type: 'counter'; aggregator: 'sum'; values: SeriesValue[] }> {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: [...this.cells].map(({ labels, value }) => ({ value, labels: { ...labels } })) };
  }
}

interface HistogramCell {
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket, each counted in the first bucket whose bound is at or above it (not cumulative); the last is above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** A histogram's series in cells of their own (see above). */
export class CellHistogram<Name extends string> extends SeriesCells<Name, HistogramCell> {
  readonly type = 'histogram';
  readonly #bounds: readonly number[];

  constructor(config: SeriesConfig<Name> & { buckets: readonly number[] }) {
    super(config);
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
  }

  /** Counts `value` in the series `labels` names; a value that is not a finite number (which prom-client throws on) is left out. */
  observe(labels: SeriesLabels<Name>, value: number): void {
    if (!Number.isFinite(value)) return;
    const cell = this.cellOf(labels);
    let bucket = 0;
    while (bucket < this.#bounds.length && value > (this.#bounds[bucket] as number)) bucket++;
    cell.counts[bucket] = (cell.counts[bucket] ?? 0) + 1;
    cell.sum += value;
    cell.count += 1;
  }

  /** Makes the series `labels` names exist with no observation, as prom-client's `zero`. */
  zero(labels: SeriesLabels<Name>): void {
    const cell = this.cellOf(labels);
    cell.counts.fill(0);
    cell.sum = 0;
    cell.count = 0;
  }

  protected newCell(labels: Readonly<Record<string, string>>): HistogramCell {
    return { labels, counts: new Float64Array(this.#bounds.length + 1), sum: 0, count: 0 };
  }

  /** What the registry writes: per series each bucket's cumulative count under its `le`, then `+Inf`, the sum and the count, as prom-client's Histogram gives them. */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: SeriesValue[] }> {
    const values: SeriesValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const cell of this.cells) {
      const sharedLabels = { ...cell.labels };
      let cumulative = 0;
      this.#bounds.forEach((bound, index) => {
        cumulative += cell.counts[index] as number;
        values.push({ labels: { le: bound }, sharedLabels, value: cumulative, metricName: bucketName });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels, value: cell.count, metricName: bucketName },
        { labels: {}, sharedLabels, value: cell.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels, value: cell.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** The same values with each series' labels in one object (`le` first), as prom-client's `get`. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: SeriesValue[] }> {
    const data = await this.getForPromString();
    return { ...data, values: data.values.map(({ labels, sharedLabels, value, metricName }) => ({ value, labels: { ...labels, ...sharedLabels }, ...(metricName !== undefined && { metricName }) })) };
  }
}

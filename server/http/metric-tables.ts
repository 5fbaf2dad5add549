/**
 * Counters and histograms updated on every request (metrics.ts), read through a prom-client
 * registry like its own metrics. prom-client validates and hashes a label object on every update,
 * ≈2–5 µs a call (issue 18: a fifth of what the smallest SOAP call costs besides its socket write);
 * here the label values, given in a fixed order, key a Map, and the work of exporting happens when
 * /metrics is scraped. The text a scrape answers is the same as prom-client's Counter and Histogram
 * write (Registry formats and escapes both).
 */
import type { Metric, Registry } from 'prom-client';

/** What a prom-client Registry reads from a metric (its `get` and `getForPromString`). */
interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: ExportedValue[];
}

interface ExportedValue {
  labels: Record<string, string | number>;
  /** Written after `labels` (a histogram's own labels after its bucket's `le`). */
  sharedLabels?: Record<string, string>;
  value: number;
  metricName?: string;
}

type Labels<L extends string> = Record<L, string>;

function labelsOf<L extends string>(names: readonly L[], values: readonly string[]): Labels<L> {
  const labels = {} as Labels<L>;
  names.forEach((name, i) => {
    labels[name] = values[i] ?? '';
  });
  return labels;
}

abstract class Table<L extends string, Row> {
  readonly aggregator = 'sum';
  protected rows = new Map<string, { labels: Labels<L>; row: Row }>();

  constructor(
    readonly name: string,
    readonly help: string,
    protected readonly labelNames: readonly L[],
    registry: Registry,
  ) {
    // The registry needs only name, type, aggregator and get(); it is typed for its own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  protected abstract fresh(): Row;

  /** The row of these label values (in `labelNames` order), made on first use. */
  protected rowOf(values: readonly string[]): Row {
    const key = values.length === 1 ? (values[0] ?? '') : values.join('\u0000');
    let entry = this.rows.get(key);
    if (!entry) {
      entry = { labels: labelsOf(this.labelNames, values), row: this.fresh() };
      this.rows.set(key, entry);
    }
    return entry.row;
  }

  abstract getForPromString(): Promise<Exported>;

  async get(): Promise<Exported> {
    const data = await this.getForPromString();
    // The JSON form has every label on the value itself (prom-client's `splayLabels`).
    return {
      ...data,
      values: data.values.map(({ sharedLabels, ...v }) => ({
        ...v,
        labels: { ...v.labels, ...sharedLabels },
      })),
    };
  }

  reset(): void {
    this.rows.clear();
  }
}

export class CounterTable<L extends string> extends Table<L, { value: number }> {
  readonly type = 'counter';

  protected fresh() {
    return { value: 0 };
  }

  /** Adds 1 to the count of these label values, in `labelNames` order. */
  inc(...values: string[]): void {
    this.rowOf(values).value++;
  }

  async getForPromString(): Promise<Exported> {
    const values = [...this.rows.values()].map(({ labels, row }) => ({ labels, value: row.value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

interface Buckets {
  /** Observations per bucket (not cumulative), one per upper bound. */
  counts: number[];
  sum: number;
  count: number;
}

export class HistogramTable<L extends string> extends Table<L, Buckets> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly L[],
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    super(name, help, labelNames, registry);
  }

  protected fresh(): Buckets {
    return { counts: this.upperBounds.map(() => 0), sum: 0, count: 0 };
  }

  /** Records one observation for these label values, in `labelNames` order. */
  observe(value: number, ...values: string[]): void {
    const b = this.rowOf(values);
    b.sum += value;
    b.count++;
    for (let i = 0; i < this.upperBounds.length; i++) {
      if (value <= (this.upperBounds[i] as number)) {
        (b.counts[i] as number)++;
        return;
      }
    }
  }

  async getForPromString(): Promise<Exported> {
    const bucket = `${this.name}_bucket`;
    const values: ExportedValue[] = [];
    for (const { labels, row } of this.rows.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += row.counts[i] as number;
        values.push({ labels: { le }, sharedLabels: labels, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: row.count, metricName: bucket });
      values.push({ labels, value: row.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: row.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

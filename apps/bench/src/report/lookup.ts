import type { CellSummary, RunResults } from '../results.js';
import type { MetricName, SdkName, TransportName, WorkloadName } from '../types.js';

/** Median lookups over a run's cells. */
export class Lookup {
  readonly #cells = new Map<string, CellSummary>();

  constructor(results: RunResults) {
    for (const cell of results.cells) this.#cells.set(`${cell.workload}|${cell.transport}|${cell.sdk}`, cell);
  }

  cell(workload: WorkloadName, transport: TransportName, sdk: SdkName): CellSummary | undefined {
    return this.#cells.get(`${workload}|${transport}|${sdk}`);
  }

  get(
    workload: WorkloadName,
    transport: TransportName,
    sdk: SdkName,
    metric: MetricName,
  ): number | undefined {
    return this.cell(workload, transport, sdk)?.metrics[metric];
  }

  /** The higher (or, `lowerIsBetter`, the lower) of the two official SDKs' values. */
  bestOfficial(
    workload: WorkloadName,
    transport: TransportName,
    metric: MetricName,
    lowerIsBetter = false,
  ): number | undefined {
    const values = (['v1', 'v2'] as const)
      .map((sdk) => this.get(workload, transport, sdk, metric))
      .filter((value): value is number => value !== undefined && !Number.isNaN(value));
    if (values.length === 0) return undefined;
    return lowerIsBetter ? Math.min(...values) : Math.max(...values);
  }
}

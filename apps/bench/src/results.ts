import { median } from './stats.js';
import type { Counts, Metrics, MetricName, SdkName, TransportName, WorkloadName } from './types.js';
import type { InstallSize } from './install-size.js';

/** Everything one run produced; also what `--json` writes and the smoke test reads. */
export interface RunResults {
  date: string;
  machine: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    memoryGiB: number;
    /** 1/5/15-minute load averages at start and end: a busy machine makes every figure noisier. */
    loadAverage: number[];
    loadAverageEnd: number[];
    /** The x-mcp source measured: commit, plus a mark when packages/ had uncommitted changes. */
    source: string;
  };
  /** `quick`: full counts but one repetition and a smaller W6. */
  mode: 'full' | 'quick' | 'smoke';
  /** The flags the run was started with (after `pnpm bench`). */
  args: string[];
  /** Repetitions completed (fewer than planned while a run is still going). */
  repetitions: number;
  plannedRepetitions: number;
  counts: Counts;
  sdks: SdkName[];
  transports: TransportName[];
  workloads: WorkloadName[];
  /** Median over repetitions per cell. */
  cells: CellSummary[];
  /** Cold start (spawn → first response) of a stdio server, median ms per SDK. */
  coldStartMs: Partial<Record<SdkName, number>>;
  installSize: Partial<Record<SdkName, InstallSize>>;
  durationSec: number;
  /** Cells measured again later by `pnpm bench --merge` (the rest are the run's own), with when. */
  remeasured?: { date: string; loadAverage: number[]; cells: string[] } | undefined;
}

/**
 * `base` with the cells of `later` in place of its own (same workload, transport and SDK): what
 * `pnpm bench --merge` writes. The date, machine and counts stay `base`'s; `remeasured` lists the
 * replaced cells and when they were measured.
 */
export function mergeRuns(base: RunResults, later: RunResults): RunResults {
  const key = (cell: CellSummary): string => `${cell.workload}/${cell.transport}/${cell.sdk}`;
  const replaced = new Set(later.cells.map(key));
  const union = <T extends string>(all: readonly T[], more: readonly T[]): T[] => [
    ...all,
    ...more.filter((item) => !all.includes(item)),
  ];
  return {
    ...base,
    sdks: union(base.sdks, later.sdks),
    transports: union(base.transports, later.transports),
    workloads: union(base.workloads, later.workloads),
    cells: [...base.cells.filter((cell) => !replaced.has(key(cell))), ...later.cells],
    remeasured: {
      date: later.date,
      loadAverage: later.machine.loadAverage,
      cells: [...(base.remeasured?.cells ?? []), ...replaced],
    },
  };
}

export interface CellSummary {
  workload: WorkloadName;
  transport: TransportName;
  sdk: SdkName;
  /** Median of each metric over the repetitions that succeeded. */
  metrics: Metrics;
  samples: number;
  /** Why the cell has no numbers: unsupported, or the errors of its failed repetitions. */
  note?: string;
}

/** Collects per-repetition samples and reduces them to medians. */
export class SampleBook {
  readonly #samples = new Map<string, Metrics[]>();
  readonly #notes = new Map<string, string>();

  add(workload: WorkloadName, transport: TransportName, sdk: SdkName, metrics: Metrics): void {
    const key = keyOf(workload, transport, sdk);
    const list = this.#samples.get(key) ?? [];
    list.push(metrics);
    this.#samples.set(key, list);
  }

  note(workload: WorkloadName, transport: TransportName, sdk: SdkName, note: string): void {
    const key = keyOf(workload, transport, sdk);
    const previous = this.#notes.get(key);
    if (previous === undefined) this.#notes.set(key, note);
    else if (!previous.includes(note)) this.#notes.set(key, `${previous}; ${note}`);
  }

  summary(workload: WorkloadName, transport: TransportName, sdk: SdkName): CellSummary {
    const key = keyOf(workload, transport, sdk);
    const samples = this.#samples.get(key) ?? [];
    const metrics: Metrics = {};
    const names = new Set(samples.flatMap((sample) => Object.keys(sample) as MetricName[]));
    for (const name of names) {
      const values = samples
        .map((sample) => sample[name])
        .filter((value): value is number => value !== undefined);
      metrics[name] = median(values);
    }
    const note = this.#notes.get(key);
    const summary: CellSummary = { workload, transport, sdk, metrics, samples: samples.length };
    if (note !== undefined) summary.note = note;
    return summary;
  }
}

function keyOf(workload: WorkloadName, transport: TransportName, sdk: SdkName): string {
  return `${workload}|${transport}|${sdk}`;
}

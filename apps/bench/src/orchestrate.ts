import { CELL_TIMEOUT_MS, W6_CELL_TIMEOUT_MS } from './config.js';
import { measureColdStart } from './cold-start.js';
import { canPin, pinningOf } from './pinning.js';
import { runCellProcess } from './run-cell-process.js';
import { median } from './stats.js';
import { SampleBook } from './results.js';
import { isW6, sdkRuns, unsupportedReason, workloadApplies } from './support.js';
import type { Counts, Metrics, SdkName, TransportName, WorkloadName } from './types.js';
import type { CellSummary } from './results.js';

export interface Plan {
  smoke: boolean;
  repetitions: number;
  counts: Counts;
  sdks: SdkName[];
  transports: TransportName[];
  workloads: WorkloadName[];
  extras: boolean;
  log: (line: string) => void;
  /** Called after each repetition with the medians so far, so a cut-short run still leaves a report. */
  onRepetition?: (partial: PlanResults, completed: number) => void;
}

export interface PlanResults {
  cells: CellSummary[];
  coldStartMs: Partial<Record<SdkName, number>>;
}

/** Rotates the SDK order per repetition so no SDK always runs first (warm caches, thermal state). */
function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** Runs every cell of the plan, SDKs interleaved per repetition, and reduces to medians. */
export async function runPlan(plan: Plan): Promise<PlanResults> {
  const book = new SampleBook();
  const cold = new Map<SdkName, number[]>();
  const timeouts = plan.smoke ? CELL_TIMEOUT_MS.smoke : CELL_TIMEOUT_MS.full;
  const w6Timeout = plan.smoke ? W6_CELL_TIMEOUT_MS.smoke : W6_CELL_TIMEOUT_MS.full;
  for (let rep = 0; rep < plan.repetitions; rep++) {
    for (const workload of plan.workloads) {
      // W6's cells (10,000 sessions each) run in the first `w6Repetitions` repetitions only.
      if (isW6(workload) && rep >= plan.counts.w6Repetitions) continue;
      const timeoutMs = isW6(workload) ? w6Timeout : timeouts;
      for (const transport of plan.transports) {
        if (!workloadApplies(workload, transport)) continue;
        for (const sdk of rotated(plan.sdks, rep)) {
          if (!sdkRuns(workload, sdk)) continue;
          const reason =
            unsupportedReason(sdk, transport, workload) ??
            (pinningOf(workload) !== undefined && !canPin()
              ? 'pinning needs `taskset` and two CPUs'
              : undefined);
          if (reason !== undefined) {
            book.note(workload, transport, sdk, reason);
            continue;
          }
          const tag = `[${rep + 1}/${plan.repetitions}] ${workload} ${transport} ${sdk}`;
          const started = performance.now();
          try {
            const result = await runCellProcess({ workload, transport, sdk, counts: plan.counts }, timeoutMs);
            book.add(workload, transport, sdk, result.metrics);
            for (const warning of result.warnings ?? []) book.note(workload, transport, sdk, warning);
            const seconds = ((performance.now() - started) / 1000).toFixed(1);
            plan.log(`${tag} (${seconds} s): ${headline(result.metrics)}`);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            book.note(workload, transport, sdk, message);
            plan.log(`${tag}: FAILED ${message}`);
          }
        }
      }
    }
    if (plan.extras) await measureColdStarts(plan, rep, cold);
    plan.onRepetition?.(summarize(plan, book, cold), rep + 1);
  }
  return summarize(plan, book, cold);
}

/** Cold starts, interleaved across SDKs like the cells; a failure is logged and leaves no sample. */
async function measureColdStarts(plan: Plan, rep: number, cold: Map<SdkName, number[]>): Promise<void> {
  for (let i = 0; i < plan.counts.coldStarts; i++) {
    // The modern column runs the same server as x-mcp: its cold start is x-mcp's.
    for (const sdk of rotated(plan.sdks, rep + i).filter((name) => name !== 'x-mcp-modern')) {
      try {
        const list = cold.get(sdk) ?? [];
        list.push(await measureColdStart(sdk));
        cold.set(sdk, list);
      } catch (error) {
        plan.log(`[${rep + 1}/${plan.repetitions}] cold start ${sdk}: FAILED ${String(error)}`);
      }
    }
  }
}

function summarize(plan: Plan, book: SampleBook, cold: ReadonlyMap<SdkName, number[]>): PlanResults {
  const cells: CellSummary[] = [];
  for (const workload of plan.workloads) {
    for (const transport of plan.transports) {
      if (!workloadApplies(workload, transport)) continue;
      for (const sdk of plan.sdks) {
        if (sdkRuns(workload, sdk)) cells.push(book.summary(workload, transport, sdk));
      }
    }
  }
  const coldStartMs: Partial<Record<SdkName, number>> = {};
  for (const [sdk, values] of cold) coldStartMs[sdk] = median(values);
  return { cells, coldStartMs };
}
function headline(metrics: Metrics): string {
  return Object.entries(metrics)
    .map(([name, value]) => `${name}=${value === undefined ? '?' : Number(value.toPrecision(4))}`)
    .join(' ');
}

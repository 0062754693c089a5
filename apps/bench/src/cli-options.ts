import { parseArgs } from 'node:util';
import {
  DEFAULT_SDKS,
  SDKS,
  type SdkName,
  TRANSPORTS,
  type TransportName,
  WORKLOADS,
  type WorkloadName,
} from './types.js';

export interface CliOptions {
  smoke: boolean;
  /** Full counts, one repetition, W6 at `QUICK_W6_SESSIONS` sessions; writes no RESULTS.md unless `--out`. */
  quick: boolean;
  /** W6's sessions, overriding the mode's count. */
  w6Sessions: number | undefined;
  /** W6's load processes, overriding the mode's count. */
  w6LoadProcesses: number | undefined;
  repetitions: number | undefined;
  sdks: SdkName[];
  transports: TransportName[];
  workloads: WorkloadName[];
  /** Markdown report path; default RESULTS.md for a full run, none for smoke. */
  out: string | undefined;
  /** Raw results as JSON (what the smoke test reads). */
  json: string | undefined;
  /** Cold start and install size. */
  extras: boolean;
  /**
   * A full run's JSON to re-measure cells of: the result is that run with every cell measured now in
   * place of its own (e.g. after fixing a bench bug that failed a few cells), written where a full
   * run writes; the report says which cells were re-measured, and when.
   */
  merge: string | undefined;
}

export const USAGE = `pnpm bench [--smoke | --quick] [--reps N] [--w6-sessions N] [--w6-load-processes N] [--sdks raw,x-mcp,v1,v2,x-mcp-modern] [--transports ${TRANSPORTS.join(',')}]
           [--workloads ${WORKLOADS.join(',')}] [--out RESULTS.md] [--json results.json] [--no-extras]
           [--merge results.json]`;

export function parseCli(argv: readonly string[]): CliOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      smoke: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      'w6-sessions': { type: 'string' },
      'w6-load-processes': { type: 'string' },
      reps: { type: 'string' },
      sdks: { type: 'string' },
      transports: { type: 'string' },
      workloads: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'string' },
      'no-extras': { type: 'boolean', default: false },
      merge: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    smoke: values.smoke,
    quick: values.quick,
    w6Sessions: positive(values['w6-sessions']),
    w6LoadProcesses: positive(values['w6-load-processes']),
    repetitions: values.reps === undefined ? undefined : Number(values.reps),
    sdks: values.sdks === undefined ? [...DEFAULT_SDKS] : listOf(values.sdks, SDKS),
    transports: listOf(values.transports, TRANSPORTS),
    workloads: listOf(values.workloads, WORKLOADS),
    out: values.out,
    json: values.json,
    extras: !values['no-extras'],
    merge: values.merge,
  };
}

function positive(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`expected a positive integer, got "${value}"`);
  return number;
}

function listOf<T extends string>(value: string | undefined, all: readonly T[]): T[] {
  if (value === undefined) return [...all];
  const picked = value.split(',').map((item) => item.trim());
  for (const item of picked) {
    if (!all.includes(item as T)) throw new Error(`unknown "${item}"; expected one of ${all.join(', ')}`);
  }
  // Keep the canonical order whatever order the flags gave.
  return all.filter((item) => picked.includes(item));
}

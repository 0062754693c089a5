import fc from 'fast-check';
import type { FuzzConfig } from './fuzz-config.js';
import { MiB, settledHeap } from './heap.js';
import {
  GENERATORS,
  type GeneratorName,
  type IdSource,
  type Probe,
  type ProbeTemplate,
  probeArbitrary,
} from './hostile-input.js';

/** One live connection to the server under test. */
export interface FuzzSession {
  readonly ids: IdSource;
  /** Sends the probes, waits until everything owed arrived (or a deadline), returns what was wrong. */
  run(probes: readonly Probe[]): Promise<string[]>;
  close(): Promise<void>;
  /** Heap (or RSS, for a child process) of the server side in bytes, after a forced GC when possible. */
  serverMemory?(): Promise<number>;
}

export interface FuzzSummary {
  transport: string;
  generators: string;
  inputs: number;
  sequences: number;
  failures: string[];
  heapGrowthMiB: number;
  seconds: number;
}

/** What every fuzz file printed, for the summary `pnpm fuzz` shows at the end of each file. */
export const summaries: FuzzSummary[] = [];

export function formatSummary(summary: FuzzSummary): string {
  const verdict = summary.failures.length === 0 ? 'ok' : `FAILED: ${summary.failures[0]?.split('\n')[0]}`;
  return `[fuzz] ${summary.transport.padEnd(28)} ${summary.generators.padEnd(22)} ${String(summary.inputs).padStart(6)} inputs in ${summary.seconds.toFixed(1)} s, heap ${summary.heapGrowthMiB >= 0 ? '+' : ''}${summary.heapGrowthMiB.toFixed(1)} MiB: ${verdict}`;
}

export interface FuzzTarget {
  transport: string;
  open(): Promise<FuzzSession>;
  /** Generators this transport cannot take (e.g. a two-message probe over one HTTP request). */
  skip?: readonly GeneratorName[];
  /** Allowed growth of the heap (or the server's memory) over the run. Default 64 MiB (+ 192 large). */
  heapBoundMiB?: number;
}

/**
 * Runs the hostile-input property against one transport: sequences of probes until about
 * `config.inputs` were sent. Throws with every problem found.
 */
export async function fuzzTransport(
  target: FuzzTarget,
  config: FuzzConfig,
  generators: readonly GeneratorName[] = GENERATORS,
  label = 'all generators',
): Promise<FuzzSummary> {
  const usable = generators.filter((name) => !target.skip?.includes(name));
  const arbitrary = fc.array(probeArbitrary({ large: config.large, generators: usable }), {
    minLength: 1,
    maxLength: 10,
  });
  const started = performance.now();
  let session: FuzzSession | undefined = await target.open();
  let inputs = 0;
  let sequences = 0;
  const failures: string[] = [];
  const memoryBefore = await measure(session);
  {
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (templates: ProbeTemplate[]) => {
        session ??= await target.open();
        const probes = templates.map((template) => template.build(session!.ids));
        sequences++;
        inputs += probes.reduce((sum, probe) => sum + probe.texts.length, 0);
        const problems = await session.run(probes);
        if (problems.length > 0) {
          // A connection that went wrong is not reused: its leftovers would blame the next sequence.
          const broken = session;
          session = undefined;
          await broken.close();
          const sent = probes.map((probe) => `  ${probe.generator}: ${probe.texts.map(clip).join(' | ')}`);
          throw new Error(`${problems.join('\n')}\nsequence:\n${sent.join('\n')}`);
        }
      }),
      { numRuns: Math.max(1, Math.ceil(config.inputs / 5)), seed: config.seed, endOnFailure: true },
    );
    if (details.failed) {
      const error = details.errorInstance;
      failures.push(
        `${error instanceof Error ? error.message : String(error)}\n(seed ${details.seed}, path ${details.counterexamplePath})`,
      );
    }
  }
  session ??= await target.open();
  const memoryAfter = await measure(session);
  await session.close();
  const summary: FuzzSummary = {
    transport: target.transport,
    generators: label,
    inputs,
    sequences,
    failures,
    heapGrowthMiB: (memoryAfter - memoryBefore) / MiB,
    seconds: (performance.now() - started) / 1000,
  };
  const bound = target.heapBoundMiB ?? (config.large ? 256 : 64);
  if (failures.length === 0 && summary.heapGrowthMiB > bound) {
    failures.push(`memory grew ${summary.heapGrowthMiB.toFixed(1)} MiB (bound ${bound} MiB)`);
  }
  summaries.push(summary);
  console.log(formatSummary(summary));
  return summary;
}

const clip = (text: string): string =>
  text.length <= 160 ? text : `${text.slice(0, 150)}… (${text.length} chars)`;

async function measure(session: FuzzSession): Promise<number> {
  return session.serverMemory === undefined ? settledHeap() : session.serverMemory();
}

/**
 * The legacy handshake on a fresh session (`initialize`, then `notifications/initialized`), through the
 * same ledger as the fuzz inputs; throws when the server does not answer it.
 */
export async function legacyHandshake(session: FuzzSession, protocolVersion: string): Promise<void> {
  const init = {
    jsonrpc: '2.0',
    id: session.ids.fresh(),
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
  };
  const problems = await session.run([
    {
      generator: 'valid-call',
      texts: [JSON.stringify(init)],
      answers: [init.id],
      refused: false,
      method: 'initialize',
      toolName: undefined,
    },
    {
      generator: 'noise',
      texts: ['{"jsonrpc":"2.0","method":"notifications/initialized"}'],
      answers: [],
      refused: false,
      method: undefined,
      toolName: undefined,
    },
  ]);
  if (problems.length > 0) throw new Error(`initialize failed: ${problems.join('; ')}`);
}

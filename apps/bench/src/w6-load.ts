/**
 * W6's client load process: `node dist/w6-load.js '<W6LoadSpec JSON>'`. Opens `sessions` sessions of
 * one kind against the running server (`concurrency` opens in flight), prints `OPENED <json>` once all
 * are open or failed, then holds them until its stdin closes, and exits.
 */
import { type W6LoadReport, W6_LOAD_REPORT_PREFIX, type W6LoadSpec } from './w6/load-spec.js';
import { openerFor } from './w6/openers.js';

/** A session that takes longer to open (its stream included) counts as failed. */
export const DEFAULT_W6_OPEN_TIMEOUT_MS = 300_000;

const spec = JSON.parse(process.argv[2] ?? '{}') as W6LoadSpec;
const held: unknown[] = [];
const report: W6LoadReport = { opened: 0, errors: 0, samples: [] };

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('session did not open in time')), DEFAULT_W6_OPEN_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

try {
  const open = await openerFor(spec.sdk, spec.kind);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(spec.concurrency, spec.sessions) }, async () => {
      while (next < spec.sessions) {
        const index = next++;
        try {
          held.push(await withTimeout(open(spec.port, index)));
          report.opened++;
        } catch (error) {
          report.errors++;
          if (report.samples.length < 3) report.samples.push(String(error).slice(0, 200));
        }
      }
    }),
  );
  // The sessions stay open until the cell is done with them: it closes this process's stdin.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
  process.stdout.write(`${W6_LOAD_REPORT_PREFIX}${JSON.stringify(report)}\n`);
} catch (error) {
  console.error(`[bench w6 load ${spec.sdk}/${spec.kind}]`, error);
  process.exit(1);
}

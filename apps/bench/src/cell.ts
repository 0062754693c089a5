/**
 * Cell process entry: `node dist/cell.js '<CellSpec JSON>'`. Prints `RESULT <json>` on stdout; the
 * orchestrator ignores anything else an SDK may print.
 */
import { runCell } from './cell-runner.js';
import type { CellSpec } from './types.js';

export const RESULT_PREFIX = 'RESULT ';

const spec = JSON.parse(process.argv[2] ?? '{}') as CellSpec;
try {
  const result = await runCell(spec);
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`, () => process.exit(0));
} catch (error) {
  console.error(`[bench cell ${spec.workload}/${spec.transport}/${spec.sdk}]`, error);
  process.exit(1);
}

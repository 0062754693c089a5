import type { Metrics, WorkloadName } from '../types.js';
import type { WorkloadContext } from './context.js';
import { runW1 } from './w1-sequential.js';
import { runW2 } from './w2-concurrent.js';
import { runW3 } from './w3-large.js';
import { runW4 } from './w4-connect.js';
import { runW5 } from './w5-sessions.js';
import { runW6 } from './w6-many-sessions.js';
import { w6KindOf } from '../w6/load-spec.js';
import { runW7 } from './w7-short-sessions.js';

export function runWorkload(workload: WorkloadName, context: WorkloadContext): Promise<Metrics> {
  switch (workload) {
    case 'w1':
      return runW1(context);
    case 'w2':
      return runW2(context);
    case 'w3':
      return runW3(context);
    case 'w4':
      return runW4(context);
    case 'w5':
      return runW5(context);
    case 'w1-warm':
      return runW1(context, context.counts.longWarmup);
    case 'w2-warm':
      return runW2(context, context.counts.longWarmup);
    case 'w1-split':
    case 'w1-shared':
      // The pinning is the processes' (see `pinningOf`); the window is W1's.
      return runW1(context);
    case 'w6':
    case 'w6-listen':
      return runW6(context, w6KindOf(workload, context.transport));
    case 'w7':
      return runW7(context);
  }
}

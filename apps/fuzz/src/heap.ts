import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** A full garbage collection, whether or not Node was started with `--expose-gc`. */
export function forceGc(): void {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
  }
  gc();
  gc();
}

/** Heap in use after a forced GC, in bytes. */
export function settledHeap(): number {
  forceGc();
  return process.memoryUsage().heapUsed;
}

export const MiB = 1024 * 1024;

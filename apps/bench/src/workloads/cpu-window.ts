import type { ProcessStats } from '../control/process-stats.js';
import { readProcessStats } from '../control/process-stats.js';
import { MIB } from '../payload.js';
import type { WorkloadContext } from './context.js';

/** Client + server CPU over a measured section, and the server's peak RSS at its end. */
export class CpuWindow {
  readonly #context: WorkloadContext;
  #client = 0;
  #server: ProcessStats | undefined;

  private constructor(context: WorkloadContext) {
    this.#context = context;
  }

  static async open(context: WorkloadContext): Promise<CpuWindow> {
    const window = new CpuWindow(context);
    window.#server = await context.serverStats(false);
    window.#client = readProcessStats(false).cpuUs;
    return window;
  }

  /**
   * Ends the window: CPU µs per operation, the server's (or, in-memory, this process's) peak RSS and
   * young-generation size.
   */
  async close(
    operations: number,
  ): Promise<{ cpuPerCallUs: number; serverPeakRssMiB: number; serverYoungGenMiB: number }> {
    const client = readProcessStats(false);
    const server = await this.#context.serverStats(false);
    const serverCpu =
      server !== undefined && this.#server !== undefined ? server.cpuUs - this.#server.cpuUs : 0;
    return {
      cpuPerCallUs: (client.cpuUs - this.#client + serverCpu) / operations,
      serverPeakRssMiB: (server ?? client).maxRss / MIB,
      serverYoungGenMiB: (server ?? client).youngGen / MIB,
    };
  }
}

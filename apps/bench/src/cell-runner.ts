import { type ChildProcess, spawn } from 'node:child_process';
import { loadAdapter } from './adapters/load-adapter.js';
import type { ServerTarget } from './adapters/types.js';
import { ControlServer } from './control/control-server.js';
import { pinned, pinningOf } from './pinning.js';
import { serverCommand } from './server-command.js';
import { isW6 } from './support.js';
import type { CellResult, CellSpec, Metrics } from './types.js';
import type { WorkloadContext } from './workloads/context.js';
import { runWorkload } from './workloads/run-workload.js';

const READY_TIMEOUT_MS = 20_000;

/** Runs one workload × transport × SDK in this (client) process against its own server process. */
export async function runCell(spec: CellSpec): Promise<CellResult> {
  const adapter = await loadAdapter(spec.sdk);
  const base = {
    transport: spec.transport,
    sdk: spec.sdk,
    counts: spec.counts,
    handshakeFree: spec.sdk === 'x-mcp-modern',
  };
  const cell = { workload: spec.workload, transport: spec.transport, sdk: spec.sdk };
  const warnings: string[] = [];
  const warn = (text: string): void => {
    warnings.push(text);
  };
  const resultOf = (metrics: Metrics): CellResult =>
    warnings.length === 0 ? { spec: cell, metrics } : { spec: cell, metrics, warnings };

  if (spec.transport === 'in-memory') {
    const pair = await adapter.inMemory();
    const context: WorkloadContext = {
      ...base,
      warn,
      connect: pair.connect,
      target: undefined,
      serverStats: async () => undefined,
      loopDelay: undefined,
    };
    const metrics = await runWorkload(spec.workload, context);
    await pair.close();
    return resultOf(metrics);
  }

  const transport = spec.transport;
  const pinning = pinningOf(spec.workload);
  const commandFor = (controlPort: number): { command: string; args: string[] } => {
    // W6 holds many sessions open: the server raises its session limits to fit them.
    const sessions = isW6(spec.workload) ? spec.counts.w6Sessions : undefined;
    const command = serverCommand({ sdk: spec.sdk, transport, controlPort, sessions });
    return pinning === undefined ? command : pinned(command, pinning.server);
  };
  const control = await ControlServer.listen();
  let child: ChildProcess | undefined;
  try {
    let target: ServerTarget;
    if (transport === 'stdio') {
      // The SDK's client spawns the server; W4 and W7 spawn many, none of which joins the side channel.
      const controlPort = spec.workload === 'w4' || spec.workload === 'w7' ? 0 : control.port;
      target = { transport, command: commandFor(controlPort) };
    } else {
      const command = commandFor(control.port);
      child = spawn(command.command, command.args, { stdio: ['ignore', 'ignore', 'inherit'] });
      const ready = await control.ready(READY_TIMEOUT_MS);
      target = { transport, port: ready.port };
    }
    const context: WorkloadContext = {
      ...base,
      warn,
      connect: () => adapter.connect(target),
      target,
      serverStats: async (collect) => {
        await control.ready(READY_TIMEOUT_MS);
        return control.stats(collect);
      },
      loopDelay: {
        start: () => control.startLoopDelay(),
        stop: () => control.stopLoopDelay(),
      },
    };
    return resultOf(await runWorkload(spec.workload, context));
  } finally {
    control.close();
    if (child !== undefined) await stopServer(child);
  }
}

/** Closing the side channel makes the server exit (and write its `--cpu-prof`); SIGKILL if it hangs. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { profileFlags } from '../server-command.js';
import {
  SHORT_SESSION_RESULT_PREFIX,
  type ShortSessionResult,
  type ShortSessionSpec,
} from '../short-session-spec.js';
import { median } from '../stats.js';
import type { Metrics } from '../types.js';
import type { WorkloadContext } from './context.js';

const SHORT_SESSION_SCRIPT = fileURLToPath(new URL('../short-session.js', import.meta.url));
/** A short session that takes longer has hung; it is killed and the cell fails. */
const SESSION_TIMEOUT_MS = 60_000;

/**
 * W7: short sessions. Each is a fresh client process that connects (over stdio: spawns the server),
 * makes `w7Calls` sequential echo calls, closes and exits, timed from its spawn to its exit. One
 * untimed session first (it warms the file cache for the SDK's modules), then `w7Sessions` timed ones;
 * the figures are their medians.
 */
export async function runW7(context: WorkloadContext): Promise<Metrics> {
  const { target } = context;
  if (target === undefined) throw new Error('W7 needs a server target (not in-memory)');
  const { w7Calls, w7Sessions } = context.counts;
  const sdk = context.sdk;
  const walls: number[] = [];
  const firsts: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i <= w7Sessions; i++) {
    const run = await runShortSession({ sdk, target, calls: w7Calls, spawnedAt: 0 });
    if (i === 0) continue;
    walls.push(run.wallMs);
    firsts.push(run.firstCallMs);
    cpus.push(run.cpuMs);
  }
  return { sessionWallMs: median(walls), firstCallMs: median(firsts), clientCpuMs: median(cpus) };
}

/** One short-session process, timed from just before its spawn to its exit. */
function runShortSession(spec: ShortSessionSpec): Promise<ShortSessionResult & { wallMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = [...profileFlags(), SHORT_SESSION_SCRIPT];
    const json = (at: number): string => JSON.stringify({ ...spec, spawnedAt: at });
    const child = spawn(process.execPath, [...args, json(performance.timeOrigin + started)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), SESSION_TIMEOUT_MS);
    child.once('error', reject);
    // The process's end is its exit; its stdout may still be draining then, so it is read at `close`.
    let wallMs = 0;
    child.once('exit', () => {
      wallMs = performance.now() - started;
      clearTimeout(timer);
    });
    child.once('close', (code, signal) => {
      const line = stdout.split('\n').find((candidate) => candidate.startsWith(SHORT_SESSION_RESULT_PREFIX));
      if (code === 0 && line !== undefined) {
        const result = JSON.parse(line.slice(SHORT_SESSION_RESULT_PREFIX.length)) as ShortSessionResult;
        resolve({ ...result, wallMs });
        return;
      }
      reject(new Error(`short session: exit ${code ?? signal}: ${stderr.trim().slice(0, 400)}`));
    });
  });
}

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { profileFlags } from '../server-command.js';
import { W6_LOAD_REPORT_PREFIX, type W6LoadReport, type W6LoadSpec } from './load-spec.js';

const LOAD_SCRIPT = fileURLToPath(new URL('../w6-load.js', import.meta.url));
/** A load process that does not exit this long after its stdin closed is killed. */
const STOP_GRACE_MS = 10_000;

/** One running load process: its report once its sessions are open, and how to end it. */
export interface LoadProcess {
  report: Promise<W6LoadReport>;
  stop(): Promise<void>;
}

/** Spawns a W6 load process (`dist/w6-load.js`); it holds its sessions until `stop()`. */
export function startLoadProcess(spec: W6LoadSpec): LoadProcess {
  const child = spawn(process.execPath, [...profileFlags(), LOAD_SCRIPT, JSON.stringify(spec)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const report = new Promise<W6LoadReport>((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n').find((candidate) => candidate.startsWith(W6_LOAD_REPORT_PREFIX));
      if (line !== undefined && stdout.endsWith('\n')) {
        resolve(JSON.parse(line.slice(W6_LOAD_REPORT_PREFIX.length)) as W6LoadReport);
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      reject(new Error(`W6 load process: exit ${code ?? signal}: ${stderr.trim().slice(0, 400)}`));
    });
  });
  report.catch(() => {});
  return {
    report,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.stdin.end();
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `total` sessions over `processes` load processes, as evenly as they go. */
export function splitSessions(total: number, processes: number): number[] {
  const count = Math.max(1, Math.min(processes, total));
  return Array.from({ length: count }, (_, i) => Math.floor(total / count) + (i < total % count ? 1 : 0));
}

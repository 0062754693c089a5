import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pinned, pinningOf } from './pinning.js';
import { profileFlags } from './server-command.js';
import type { CellResult, CellSpec } from './types.js';

const CELL_SCRIPT = fileURLToPath(new URL('./cell.js', import.meta.url));
const RESULT_PREFIX = 'RESULT ';

/**
 * Runs one cell in a fresh client process (so no SDK's code, JIT state or garbage leaks into another's
 * numbers); kills it, and its process group's servers, after `timeoutMs`. `BENCH_CPU_PROF=<dir>`
 * profiles the client process too (see `profileFlags`).
 */
export function runCellProcess(spec: CellSpec, timeoutMs: number): Promise<CellResult> {
  return new Promise((resolve, reject) => {
    const plain = { command: process.execPath, args: [...profileFlags(), CELL_SCRIPT, JSON.stringify(spec)] };
    const pinning = pinningOf(spec.workload);
    const { command, args } = pinning === undefined ? plain : pinned(plain, pinning.client);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_PREFIX));
      if (code === 0 && line !== undefined) {
        resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as CellResult);
        return;
      }
      const why = signal === 'SIGKILL' ? `timed out after ${timeoutMs} ms` : `exit ${code ?? signal}`;
      reject(new Error(`${why}: ${lastLines(stderr)}`));
    });
  });
}

function lastLines(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => !line.includes('MaxListenersExceededWarning'));
  return lines.slice(0, 3).join(' | ').slice(0, 400);
}

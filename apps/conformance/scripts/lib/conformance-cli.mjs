// Runs the pinned conformance CLI under Node 20: `--import` loads the resolve hook in ../../shim
// (CONFORMANCE.md §6, Fix B). The CLI is started directly, never through npx, so no registry lookup
// happens at run time.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
);
const SHIM = new URL('../../shim/register.mjs', import.meta.url).href;

/**
 * Runs one CLI invocation. The CLI runs in its own process group so that a run past `timeoutMs` can
 * be stopped together with the client processes it spawned (a hung run must not hang CI).
 * @param {{ args: string[], cwd: string, logFile: string, echo: boolean, timeoutMs: number }} options
 * @returns {Promise<{ code: number | null, output: string, timedOut: boolean }>}
 */
export function runConformance({ args, cwd, logFile, echo, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', SHIM, CLI, ...args], {
      cwd,
      stdio: 'pipe',
      detached: true,
    });
    const log = createWriteStream(logFile);
    let output = '';
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    process.once('exit', killGroup);
    const take = (chunk) => {
      output += chunk;
      log.write(chunk);
      if (echo) process.stdout.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      process.off('exit', killGroup);
      log.end(() => resolve({ code, output, timedOut }));
    });
  });
}

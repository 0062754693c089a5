// Starts the server under test on a free loopback port and stops it again. The command is spawned
// without a shell, so the pid we hold is the server itself and stopping it leaves no orphan.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { freePort } from './free-port.mjs';

const READY_TIMEOUT_MS = 20_000;
const POLL_MS = 100;
const STOP_GRACE_MS = 3_000;

/**
 * @param {{ command: string, cwd: string, logFile: string }} options
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startServer({ command, cwd, logFile }) {
  const port = await freePort();
  const [file, ...args] = command.split(' ').filter(Boolean);
  const log = createWriteStream(logFile);
  const child = spawn(file, args, { cwd, env: { ...process.env, PORT: String(port) }, stdio: 'pipe' });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const url = `http://127.0.0.1:${port}/mcp`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', orphanGuard);
    await new Promise((resolve) => log.end(resolve));
  };
  try {
    await waitUntilServing(url, exited);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

// Any HTTP answer (even 400 or 405 to a bare GET) means the listener is up.
async function waitUntilServing(url, exited) {
  let gone;
  exited.then((how) => {
    gone = how;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (gone !== undefined) throw new Error(`server exited (${gone}) before it was serving ${url}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  throw new Error(`server did not answer on ${url} within ${READY_TIMEOUT_MS} ms`);
}

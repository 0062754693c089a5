import { spawn } from 'node:child_process';
import { INITIALIZE_PARAMS } from './payload.js';
import { serverCommand } from './server-command.js';
import type { SdkName } from './types.js';

/**
 * Cold start of a stdio server: spawn → the `initialize` response on stdout, written the moment the
 * process exists (a server must buffer it until it is ready). The same neutral driver for every SDK.
 */
export async function measureColdStart(sdk: SdkName): Promise<number> {
  const { command, args } = serverCommand({ sdk, transport: 'stdio', controlPort: 0 });
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const answered = new Promise<number>((resolve, reject) => {
    child.stdout.once('data', () => resolve(performance.now() - started));
    child.once('error', reject);
    child.once('exit', () => reject(new Error(`${sdk} stdio server exited before answering`)));
  });
  // A server that never answers would hang the run: give up (the exit rejects `answered`).
  const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE_PARAMS })}\n`,
  );
  try {
    return await answered;
  } finally {
    clearTimeout(deadline);
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

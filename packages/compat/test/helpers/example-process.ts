import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const preload = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'listen-on-free-port.mjs');

/** A running example HTTP server; disposing it kills the process and waits for its exit. */
export interface ExampleServer extends AsyncDisposable {
  readonly url: URL;
  readonly output: () => string;
}

/**
 * Starts `node <file>` (an example that listens on port 3000, moved to a free port by the preload) in
 * `cwd` and resolves once it listens. Rejects with the process's output if it exits first.
 */
export function startExampleServer(file: string, cwd: string): Promise<ExampleServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', preload, file], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /LISTENING (\d+)/.exec(output)?.[1];
      if (port === undefined) return;
      resolve({
        url: new URL(`http://127.0.0.1:${port}/mcp`),
        output: () => output,
        async [Symbol.asyncDispose]() {
          if (child.exitCode === null) child.kill();
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before listening:\n${output}`)));
  });
}

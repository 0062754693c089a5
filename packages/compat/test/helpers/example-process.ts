import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const preload = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'listen-on-free-port.mjs');

/** A running example HTTP server; disposing it kills the process and waits for its exit. */
export interface ExampleServer extends AsyncDisposable {
  readonly url: URL;
  readonly output: () => string;
}

/** How to start a server program besides its file. */
export interface StartOptions {
  /** Node flags before the file (e.g. another `--import`). */
  nodeArgs?: string[] | undefined;
  /** Arguments after the file. */
  args?: string[] | undefined;
  /** The port the program listens on, moved to a free one. Default 3000. */
  port?: number | undefined;
  /** Path of the endpoint in the URL handed back. Default `/mcp`. */
  path?: string | undefined;
}

/**
 * Starts `node <file>` (an example that listens on port 3000, moved to a free port by the preload) in
 * `cwd` and resolves once it listens. Rejects with the process's output if it exits first.
 */
export function startExampleServer(
  file: string,
  cwd: string,
  options: StartOptions = {},
): Promise<ExampleServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', preload, file, ...(options.args ?? [])],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, X_COMPAT_MOVE_PORT: String(options.port ?? 3000) },
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /LISTENING (\d+)/.exec(output)?.[1];
      if (port === undefined) return;
      resolve({
        url: new URL(`http://127.0.0.1:${port}${options.path ?? '/mcp'}`),
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

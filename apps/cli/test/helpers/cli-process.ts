import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The built CLI: these tests run it as a person would, through `node dist/bin.js`. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: build first with pnpm turbo run build --filter=@x/cli...`);
  }
}

const running = new Set<ChildProcess>();

/** Kills every process a test started (call from `afterEach`); resolves once they are gone. */
export async function killAll(): Promise<void> {
  const exits = [...running].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  running.clear();
  await Promise.all(exits);
}

/** Same environment for every run: no colors, so assertions see plain text. */
const ENV: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
delete ENV['FORCE_COLOR'];

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `x-mcp …` to completion (stdin closed at once: not a terminal) and collects its output. */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string> } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...ENV, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running `x-mcp` process (serve, listen) whose output is watched as it comes. */
export interface LiveCli {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the output so far once `pattern` appears in the stream. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
  /** Resolves with the exit code. */
  exited(): Promise<number | null>;
}

export function startCli(args: readonly string[], options: { env?: Record<string, string> } = {}): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...ENV, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  const output = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  for (const name of ['stdout', 'stderr'] as const) {
    child[name].setEncoding('utf8').on('data', (chunk: string) => {
      output[name] += chunk;
      for (const check of waiters) check();
    });
  }
  const exit = new Promise<number | null>((resolve) => {
    child.once('close', (code) => {
      running.delete(child);
      for (const check of waiters) check();
      resolve(code);
    });
  });
  return {
    child,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    exited: () => exit,
    waitFor: (stream, pattern) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(output[stream])) {
            waiters.delete(check);
            resolve(output[stream]);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(
              new Error(
                `x-mcp ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before ${pattern} appeared on ${stream}:\n${output.stdout}\n${output.stderr}`,
              ),
            );
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** `x-mcp serve --transport <t> --port 0`; resolves with the URL it prints on its first stdout line. */
export async function serve(
  transport: 'http' | 'sse' | 'ws' | 'grpc',
  extra: readonly string[] = [],
): Promise<{ url: string; server: LiveCli }> {
  const server = startCli(['serve', '--transport', transport, '--port', '0', ...extra]);
  const stdout = await server.waitFor('stdout', /\n/);
  return { url: stdout.split('\n')[0] ?? '', server };
}

/** A port nothing listens on: bound by the OS, then released. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

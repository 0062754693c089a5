import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { createClient } from 'redis';

/** A redis-server child of the bench. */
export interface BenchRedis {
  url: string;
  /** Calls per command since start (`INFO commandstats`), e.g. `{ publish: 12, xadd: 40 }`. */
  commandStats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` (`REDIS_SERVER`, else /usr/bin/redis-server, else PATH) on a free loopback port
 * with persistence off: the spawn logic of `startRedis()` in `@x/test-kit`, which a built app cannot
 * import (the test kit is TypeScript source only). A missing binary fails loudly.
 *
 * @example
 * const redis = await startBenchRedis();
 * const before = await redis.commandStats();
 */
export async function startBenchRedis(): Promise<BenchRedis> {
  const fromEnv = process.env['REDIS_SERVER'];
  const binary =
    fromEnv !== undefined && fromEnv !== ''
      ? fromEnv
      : existsSync('/usr/bin/redis-server')
        ? '/usr/bin/redis-server'
        : 'redis-server';
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('error', (error) =>
      reject(
        new Error(`Cannot start ${binary} (install redis-server or set REDIS_SERVER): ${error.message}`),
      ),
    );
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const url = `redis://127.0.0.1:${port}`;
  const admin = await createClient({ url }).connect();
  return {
    url,
    commandStats: async () => {
      const stats: Record<string, number> = Object.create(null);
      const text = await admin.info('commandstats');
      for (const match of text.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm))
        stats[match[1] as string] = Number(match[2]);
      return stats;
    },
    stop: async () => {
      admin.destroy();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `pnpm demo:cluster` as built JavaScript: a real redis-server, three real processes, a balancer.
const demo = fileURLToPath(new URL('../dist/cluster-demo.js', import.meta.url));

describe('pnpm demo:cluster (built)', () => {
  it('runs one session across three processes on Redis, survives kill -9 and a drain, exits 0', async () => {
    if (!existsSync(demo)) throw new Error(`${demo} is missing: build @x/examples first (pnpm build)`);
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(process.execPath, [demo], { timeout: 55_000 }, (error, out, err) => {
          resolve({
            code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1,
            stdout: out,
            stderr: err,
          });
        });
      },
    );
    expect(stderr).toBe('');
    expect(stdout).not.toContain('FAIL');
    expect(stdout).toMatch(/ok {3}one session, six calls, served by [abc]( [abc]){5}/);
    expect(stdout).toMatch(/ok {3}count ran on [abc]: 200\/200 events, 0 lost, 0 duplicated/);
    expect(stdout).toMatch(/ok {3}GET stream resumed with Last-Event-ID on [abc]/);
    expect(stdout).toMatch(/ok {3}SIGTERM [abc]: drained, exit 0/);
    expect(stdout).toContain('cluster demo passed');
    expect(code).toBe(0);
  }, 60_000);
});

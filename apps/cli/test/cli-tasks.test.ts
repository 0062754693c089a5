import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, runCli, serve, startCli, unusedPort } from './helpers/cli-process.js';

// `x-mcp call` on task tools and `x-mcp tasks`: against the official everything-server (2025-11-25
// experimental tasks, over stdio and Streamable HTTP) and against x-mcp's own (the 2026-07-28 extension).

beforeAll(assertBuilt);
const started = new Set<ChildProcess>();
afterEach(async () => {
  await killAll();
  await Promise.all(
    [...started].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  started.clear();
});

/** The official everything-server's entry (`mcp-server-everything`), a devDependency of the CLI. */
const OFFICIAL = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** Starts the official server on Streamable HTTP; resolves once it listens. */
async function officialHttp(): Promise<string> {
  const port = await unusedPort();
  const child = spawn(process.execPath, [OFFICIAL, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.add(child);
  await new Promise<void>((resolve, reject) => {
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      if (log.includes(`listening on port ${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the official server exited (${code}):\n${log}`)));
  });
  return `http://localhost:${port}/mcp`;
}

const TASK_LINE = /task ([0-9a-f-]+) working/;

describe('x-mcp call on a task tool of the official everything-server (2025-11-25 tasks)', () => {
  it('stdio: simulate-research-query runs to completion with a status line per stage', async () => {
    const run = await runCli([
      'call',
      'simulate-research-query',
      'topic=tides',
      '--',
      process.execPath,
      OFFICIAL,
      'stdio',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('# Research Report: tides');
    expect(run.stderr).toMatch(/task [0-9a-f-]+ working: Gathering sources/);
    expect(run.stderr).toMatch(/task [0-9a-f-]+ completed/);
  });

  it('HTTP: the same over Streamable HTTP; Ctrl-C cancels the task on the server (exit 130)', async () => {
    const url = await officialHttp();
    const run = await runCli(['call', 'simulate-research-query', 'topic=waves', url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('# Research Report: waves');

    const cli = startCli(['call', 'simulate-research-query', 'topic=storms', url]);
    const [, taskId] = TASK_LINE.exec(await cli.waitFor('stderr', TASK_LINE)) ?? [];
    cli.child.kill('SIGINT');
    expect(await cli.exited()).toBe(130);
    // The CLI waited for the server to acknowledge the cancellation and shows the task's last state.
    expect(cli.stderr()).toContain(`task ${taskId} cancelled`);
    expect(cli.stdout()).toBe('');
  });
});

describe('x-mcp call and x-mcp tasks on x-mcp servers', () => {
  it('2026-07-28 (the tasks extension): call follows the task; tasks get/cancel work from another run', async () => {
    const { url } = await serve('http');
    const run = await runCli(['call', 'slow_compute', 'seconds=0.3', 'label=demo', url]);
    expect(run).toMatchObject({ code: 0, stdout: 'Computed demo after 0.3 s\n' });
    expect(run.stderr).toMatch(/task [0-9a-f-]+ completed/);

    const cli = startCli(['call', 'slow_compute', 'seconds=60', url]);
    const [, taskId] = TASK_LINE.exec(await cli.waitFor('stderr', TASK_LINE)) ?? [];
    // The task id is the handle: another run reaches it (no session on 2026-07-28).
    const get = await runCli(['tasks', 'get', taskId!, url]);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(new RegExp(`task ${taskId} working`));
    const cancel = await runCli(['tasks', 'cancel', taskId!, url]);
    expect(cancel.stdout).toContain(`task ${taskId} cancelled`);
    // The first run sees the cancellation as the task's end.
    expect(await cli.exited()).not.toBe(0);
    const json = await runCli(['tasks', 'get', '--json', taskId!, url]);
    expect(JSON.parse(json.stdout)).toMatchObject({ taskId, status: 'cancelled', ttlMs: expect.any(Number) });
    // tasks/list does not exist on 2026-07-28.
    expect((await runCli(['tasks', 'list', url])).code).not.toBe(0);
  });

  it('2025-11-25 over stdio: list and result in one session are refused clearly for an unknown id', async () => {
    const run = await runCli([
      'tasks',
      'result',
      'nope',
      '--legacy',
      '--',
      process.execPath,
      OFFICIAL,
      'stdio',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('-32602');
    const list = await runCli(['tasks', 'list', '--legacy', '--', process.execPath, OFFICIAL, 'stdio']);
    expect(list).toMatchObject({ code: 0, stdout: 'no tasks\n' });
  });

  it('usage: tasks needs an action and a task id', async () => {
    expect((await runCli(['tasks', 'http://127.0.0.1:9/mcp'])).stderr).toContain(
      'expected one of get, cancel, result, list',
    );
    expect((await runCli(['tasks', 'get', 'http://127.0.0.1:9/mcp'])).stderr).toContain('missing <task-id>');
  });
});

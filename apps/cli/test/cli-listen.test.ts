import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, runCli, serve, startCli } from './helpers/cli-process.js';

let url = '';

beforeAll(async () => {
  assertBuilt();
  ({ url } = await serve('http'));
});
afterAll(killAll);

describe('x-mcp listen', () => {
  const listeners: Array<ReturnType<typeof startCli>> = [];
  afterEach(() => {
    for (const listener of listeners.splice(0)) listener.child.kill('SIGKILL');
  });

  for (const era of [
    { name: 'modern (subscriptions/listen)', flags: [] as string[] },
    { name: 'legacy (session notifications)', flags: ['--legacy'] },
  ]) {
    it(`prints list changes until Ctrl-C, then exits 0: ${era.name}`, async () => {
      const listener = startCli([
        'listen',
        '--json',
        '--subscribe',
        'test://watched-resource',
        ...era.flags,
        url,
      ]);
      listeners.push(listener);
      await listener.waitFor('stderr', /Listening/);

      await runCli(['call', 'test_trigger_tool_change', url]);
      await listener.waitFor('stdout', /notifications\/tools\/list_changed/);
      await runCli(['call', 'test_trigger_prompt_change', url]);
      const stdout = await listener.waitFor('stdout', /notifications\/prompts\/list_changed/);

      const events = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { method: string; time: string });
      expect(events.map((e) => e.method)).toEqual([
        'notifications/tools/list_changed',
        'notifications/prompts/list_changed',
      ]);
      listener.child.kill('SIGINT');
      expect(await listener.exited()).toBe(0);
    });
  }

  it('human output: one timestamped line per notification', async () => {
    const listener = startCli(['listen', url]);
    listeners.push(listener);
    await listener.waitFor('stderr', /Listening/);
    await runCli(['call', 'test_trigger_tool_change', url]);
    const stdout = await listener.waitFor('stdout', /list_changed/);
    expect(stdout).toMatch(/^\d\d:\d\d:\d\d\.\d{3} notifications\/tools\/list_changed\n$/);
    listener.child.kill('SIGINT');
    expect(await listener.exited()).toBe(0);
  });

  it('exits 3 when the heartbeat finds a server that hangs with its pipes open (stdio)', async () => {
    const hanging = fileURLToPath(new URL('./fixtures/hanging-stdio-server.mjs', import.meta.url));
    const listener = startCli(['listen', '--legacy', '--heartbeat', '200', '--', process.execPath, hanging]);
    listeners.push(listener);
    await listener.waitFor('stderr', /Listening/);
    expect(await listener.exited()).toBe(3);
    expect(listener.stderr()).toMatch(
      /declared dead: 2 heartbeat probe\(s\) in a row got no answer within heartbeat\.timeoutMs \(200 ms\)/,
    );
  });

  it('refuses a --heartbeat that is not a number of milliseconds', async () => {
    const run = await runCli(['listen', '--heartbeat', 'soon', url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--heartbeat expects a number of milliseconds (0 turns it off), got 'soon'");
  });

  for (const transport of ['http', 'ws'] as const) {
    it(`exits 3 when the server goes away (${transport})`, async () => {
      const own = await serve(transport);
      const listener = startCli(['listen', own.url]);
      listeners.push(listener);
      await listener.waitFor('stderr', /Listening/);
      own.server.child.kill('SIGKILL');
      expect(await listener.exited()).toBe(3);
      expect(listener.stderr()).toMatch(/x-mcp: error -32000: connection closed/);
    });
  }
});

// Proof of issue 39 for 1.x's experimental tasks: the official SDK 1.32.2 example server
// `server/simpleTaskInteractive.js` (the low-level `Server` with its own `tools/call`, `tasks/get` and
// `tasks/result` handlers, a task store and message queue of its own, elicitation and sampling sent
// from `tasks/result`) runs unchanged on @x/compat (SDK imports aliased; port 8000 moved to a free one),
// driven by the genuine official example client `client/simpleTaskInteractiveClient.js` (the same
// transcript as against the genuine server) and by the x-mcp Client. Needs @x/compat built.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { aliasedApp, OFFICIAL_EXAMPLES } from './helpers/aliased-app.js';
import { startExampleServer } from './helpers/example-process.js';

const built = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'dist',
  'experimental',
  'tasks',
  'stores',
  'in-memory.js',
);
beforeAll(() => {
  if (!existsSync(built))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
});

const EXAMPLE = 'server/simpleTaskInteractive.js';
const start = (file: string, cwd: string) => startExampleServer(file, cwd, { port: 8000 });

/**
 * Runs the genuine official interactive client against `url`, typing `y` at its elicitation prompt;
 * resolves with its exit code and output, task ids and the URL replaced by placeholders.
 */
function runOfficialClient(url: URL): Promise<{ code: number | null; transcript: string }> {
  const child = spawn(
    process.execPath,
    [join(OFFICIAL_EXAMPLES, 'client', 'simpleTaskInteractiveClient.js'), '--url', url.href],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.endsWith('Your response (y/n): ')) child.stdin.write('y\n');
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once('exit', (code) =>
      resolve({
        code,
        transcript: output
          .replaceAll(url.href, '<url>')
          .replace(/Task created: [0-9a-f-]+/g, 'Task created: <id>'),
      }),
    );
  });
}

describe('server/simpleTaskInteractive.js (official example) on @x/compat', () => {
  it('driven by the genuine official simpleTaskInteractiveClient.js: the same transcript as against the genuine server', async () => {
    using app = aliasedApp();
    let compatRun: { code: number | null; transcript: string };
    {
      await using server = await start(app.addOfficialExample(EXAMPLE), app.dir);
      compatRun = await runOfficialClient(server.url);
      expect(server.output()).toContain('[Server] Delivering queued request message for task');
    }
    expect(compatRun.code).toBe(0);
    expect(compatRun.transcript).toContain("Result: Deleted 'important.txt'");
    expect(compatRun.transcript).toContain('Task status: input_required');
    expect(compatRun.transcript).toContain('Result:\nHaiku:\nCherry blossoms fall');
    const genuineFile = join(OFFICIAL_EXAMPLES, EXAMPLE);
    await using genuine = await start(genuineFile, dirname(genuineFile));
    const genuineRun = await runOfficialClient(genuine.url);
    expect(genuineRun.code).toBe(0);
    expect(compatRun.transcript).toBe(genuineRun.transcript);
  }, 90_000);

  it('driven by the x-mcp Client (callToolInTask): elicitation and sampling answered through tasks/result', async () => {
    using app = aliasedApp();
    await using server = await start(app.addOfficialExample(EXAMPLE), app.dir);
    const client = new Client({ name: 'x-mcp', version: '1.0.0' });
    const asked: string[] = [];
    let confirm = true;
    client.setElicitationHandler((params) => {
      asked.push(params.message);
      return { action: 'accept', content: { confirm } };
    });
    client.setSamplingHandler((params) => {
      const content = params.messages[0]?.content as { text?: string };
      asked.push(content.text ?? '');
      return {
        role: 'assistant',
        model: 'test',
        content: { type: 'text', text: 'leaves fall / red and gold' },
      };
    });
    await client.connect(new StreamableHttpClientTransport(server.url));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.execution?.taskSupport])).toEqual([
        ['confirm_delete', 'required'],
        ['write_haiku', 'required'],
      ]);
      const statuses: string[] = [];
      const deleted = await client.callToolInTask(
        { name: 'confirm_delete', arguments: { filename: 'a.txt' } },
        { onstatus: (task) => statuses.push(task.status) },
      );
      expect(deleted.content).toEqual([{ type: 'text', text: "Deleted 'a.txt'" }]);
      expect(statuses).toContain('input_required');
      confirm = false;
      const kept = await client.callToolInTask({ name: 'confirm_delete', arguments: { filename: 'b.txt' } });
      expect(kept.content).toEqual([{ type: 'text', text: 'Deletion cancelled' }]);
      const haiku = await client.callToolInTask({ name: 'write_haiku', arguments: { topic: 'autumn' } });
      expect(haiku.content).toEqual([{ type: 'text', text: 'Haiku:\nleaves fall / red and gold' }]);
      expect(asked).toEqual([
        "Are you sure you want to delete 'a.txt'?",
        "Are you sure you want to delete 'b.txt'?",
        'Write a haiku about autumn',
      ]);
    } finally {
      await client.close();
    }
  }, 90_000);
});

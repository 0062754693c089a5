import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, type LiveCli, runCli, serve } from './helpers/cli-process.js';

// One `x-mcp serve` for the whole file (a server serves many clients); each test runs the CLI against it.
let url = '';
let server: LiveCli | undefined;

beforeAll(async () => {
  assertBuilt();
  ({ url, server } = await serve('http'));
});
afterAll(killAll);

describe('x-mcp against `x-mcp serve --transport http --port 0`', () => {
  it('prints the chosen URL on the first line of stdout', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server?.child.exitCode).toBeNull();
  });

  it('info --json: server info, era, version, capabilities, instructions', async () => {
    const run = await runCli(['info', '--json', url]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      serverInfo: { name: 'x-mcp-everything-server', version: '1.0.0' },
      era: 'modern',
      protocolVersion: '2026-07-28',
      transport: 'streamable-http',
      capabilities: { tools: {}, resources: { subscribe: true }, prompts: {} },
      instructions: 'Conformance fixture server for x-mcp.',
    });
  });

  it('info --legacy negotiates the initialize era; --protocol-version pins a version', async () => {
    const legacy = await runCli(['info', '--legacy', url]);
    expect(legacy.code).toBe(0);
    expect(legacy.stdout).toMatch(/Era\s+legacy \(protocol 2025-11-25\)/);
    expect(legacy.stdout).toMatch(/Server\s+x-mcp everything server \(x-mcp-everything-server 1\.0\.0\)/);
    const pinned = await runCli(['info', '--json', '--protocol-version', '2025-06-18', url]);
    expect(JSON.parse(pinned.stdout)).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
  });

  it('tools: a table of names, arguments and descriptions', async () => {
    const run = await runCli(['tools', url]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ARGUMENTS\s+DESCRIPTION$/);
    expect(run.stdout).toMatch(/test_simple_text\s+Tests simple text content response/);
    expect(run.stdout).toMatch(/test_elicitation\s+message\*: string\s+Tests server-initiated elicitation/);
  });

  it('tools --json lists every tool with its schema', async () => {
    const run = await runCli(['tools', '--json', url]);
    const { tools } = JSON.parse(run.stdout) as { tools: Array<{ name: string; inputSchema: unknown }> };
    expect(tools.map((t) => t.name)).toContain('json_schema_2020_12_tool');
  });

  it('call prints text content', async () => {
    const run = await runCli(['call', 'test_simple_text', url]);
    expect(run).toMatchObject({ code: 0, stdout: 'This is a simple text response for testing.\n' });
  });

  it('call types key=value arguments from the input schema (object as JSON)', async () => {
    const run = await runCli([
      'call',
      'json_schema_2020_12_tool',
      'name=Ada',
      'address={"city":"Paris"}',
      'kind=person',
      url,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('called with: {"name":"Ada","address":{"city":"Paris"},"kind":"person"}');
  });

  it('call takes the arguments as JSON, positional or --args', async () => {
    const positional = await runCli(['call', 'test_x_mcp_header', '{"region":"eu-west"}', url]);
    expect(positional.stdout).toBe('region=eu-west\n');
    const option = await runCli(['call', 'test_x_mcp_header', '--args', '{"region":"us"}', url]);
    expect(option.stdout).toBe('region=us\n');
  });

  it('call renders images as type + size, and saves them with --out', async () => {
    const shown = await runCli(['call', 'test_multiple_content_types', url]);
    expect(shown.stdout).toContain('Multiple content types test:\n[image image/png, 70 bytes]\n');
    expect(shown.stdout).toContain(
      '[resource test://mixed-content-resource application/json]\n{"test":"data","value":123}',
    );
    const dir = await mkdtemp(join(tmpdir(), 'x-mcp-out-'));
    try {
      const saved = await runCli(['call', 'test_image_content', '--out', dir, url]);
      const path = join(dir, 'test_image_content-1.png');
      expect(saved.stdout).toBe(`[image image/png, 70 bytes → ${path}]\n`);
      expect((await readFile(path)).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('call --json prints the whole result', async () => {
    const run = await runCli(['call', 'test_audio_content', '--json', url]);
    expect(JSON.parse(run.stdout)).toMatchObject({ content: [{ type: 'audio', mimeType: 'audio/wav' }] });
  });

  it('a tool result with isError goes to stderr and exits 1', async () => {
    const run = await runCli(['call', 'test_error_handling', url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Tool test_error_handling reported an error:');
    expect(run.stderr).toContain('This tool intentionally returns an error for testing');
  });

  it('an unknown tool prints the JSON-RPC code and exits 1', async () => {
    const run = await runCli(['call', 'no_such_tool', url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/x-mcp: error -32602: .*no_such_tool/);
    const json = await runCli(['call', 'no_such_tool', '--json', url]);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: -32602, exitCode: 1 } });
  });

  it('call prints server logs on stderr (--log-level), keeping stdout for the result', async () => {
    const run = await runCli(['call', 'test_tool_with_logging', '--log-level', 'info', url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Tool with logging executed successfully\n');
    expect(run.stderr).toContain('[info] Tool execution started');
  });

  it('refuses elicitation when stdin is not a terminal: decline + message on stderr', async () => {
    for (const era of [[], ['--legacy']]) {
      const run = await runCli(['call', 'test_elicitation', 'message=Who are you?', ...era, url]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('User response: action=decline, content={}\n');
      expect(run.stderr).toContain("declined the server's request for input: Who are you?");
      expect(run.stderr).toContain('stdin is not a terminal');
    }
  });

  it('--root offers directories to roots/list, in both eras', async () => {
    const dir = tmpdir();
    for (const era of [[], ['--legacy']]) {
      const run = await runCli(['call', 'test_input_required_result_list_roots', '--root', dir, ...era, url]);
      expect(run).toMatchObject({ code: 0, stdout: `Roots: ${pathToFileURL(dir).href}\n` });
    }
  });

  it('resources and templates: tables', async () => {
    const resources = await runCli(['resources', url]);
    expect(resources.stdout).toMatch(/^URI\s+NAME\s+TYPE\s+DESCRIPTION\n/);
    expect(resources.stdout).toMatch(/test:\/\/static-text\s+static-text\s+text\/plain/);
    const templates = await runCli(['templates', url]);
    expect(templates.stdout).toMatch(/test:\/\/template\/\{id\}\/data\s+template\s+application\/json/);
  });

  it('read prints a text resource as is, and a binary one as type + size', async () => {
    const text = await runCli(['read', 'test://static-text', url]);
    expect(text).toMatchObject({ code: 0, stdout: 'This is the content of the static text resource.\n' });
    const binary = await runCli(['read', 'test://static-binary', url]);
    expect(binary.stdout).toContain('[blob image/png, 70 bytes]');
    const templated = await runCli(['read', 'test://template/7/data', '--json', url]);
    expect(JSON.parse(templated.stdout)).toMatchObject({ contents: [{ uri: 'test://template/7/data' }] });
  });

  it('prompts and prompt k=v', async () => {
    const list = await runCli(['prompts', url]);
    expect(list.stdout).toMatch(
      /test_prompt_with_arguments\s+arg1\*, arg2\*\s+A prompt with required arguments/,
    );
    const got = await runCli(['prompt', 'test_prompt_with_arguments', 'arg1=one', 'arg2=2', url]);
    expect(got).toMatchObject({
      code: 0,
      stdout: "user:\n  Prompt with arguments: arg1='one', arg2='2'\n",
    });
  });

  it('complete prompt:<name> <argument> <partial>', async () => {
    const run = await runCli(['complete', 'prompt:test_prompt_with_arguments', 'arg1', 'he', url]);
    expect(run).toMatchObject({ code: 0, stdout: 'hello\nhelp\n' });
  });

  it('ping: server/discover on the modern era, ping on the legacy one', async () => {
    const modern = await runCli(['ping', '--json', url]);
    expect(JSON.parse(modern.stdout)).toMatchObject({ ok: true, method: 'server/discover' });
    const legacy = await runCli(['ping', '--legacy', url]);
    expect(legacy.stdout).toMatch(/^pong from x-mcp-everything-server in [\d.]+ ms \(ping\)\n$/);
  });
});

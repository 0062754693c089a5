// Proof of issue 39 with a community server from the npm registry: `time-mcp` 1.0.6 (by yokingma, not the
// modelcontextprotocol org; pinned devDependency; its own dependency `@modelcontextprotocol/sdk` ^1.25.3
// resolves to the official 1.32.2). It is run unchanged twice over stdio (it offers no other transport) —
// on the genuine official SDK, and with its `@modelcontextprotocol/sdk` imports aliased onto @x/compat by
// the `--import` resolve hook — and each run is driven by the official 1.32.2 Client and by the x-mcp
// Client with the same questions. The answers must be the same. Needs @x/compat built.
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@x/client';
import { StdioClientTransport } from '@x/transport-stdio';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const compatDir = join(here, '..');
const timeMcpDir = realpathSync(join(compatDir, 'node_modules', 'time-mcp'));
const timeMcp = join(timeMcpDir, 'dist', 'index.js');
const alias = join(here, 'fixtures', 'alias-official-sdk.mjs');
/** The server guesses the local timezone (`dayjs.tz.guess()`): pinned so both runs guess the same. */
const env = { TZ: 'Asia/Tokyo' };

beforeAll(() => {
  if (!existsSync(join(compatDir, 'dist', 'server', 'mcp.js')))
    throw new Error('@x/compat is not built: pnpm turbo run build --filter=@x/compat...');
  // The server really is built on the official SDK's module paths (not a bundle of it), so the alias
  // has something to replace.
  const source = readFileSync(timeMcp, 'utf8');
  if (!source.includes('from "@modelcontextprotocol/sdk/server/mcp.js"'))
    throw new Error('time-mcp no longer imports @modelcontextprotocol/sdk/server/mcp.js');
});

interface Tool {
  name: string;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
}
interface Result {
  content: unknown[];
  isError?: boolean | undefined;
}
interface Driven {
  serverInfo: unknown;
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<Result>;
  /** Errors the client's transport reported (a line on stdout that is not JSON-RPC, …). */
  readonly transportErrors: string[];
  readonly stderr: () => string;
  close(): Promise<void>;
}

function serverArgs(aliased: boolean): string[] {
  return aliased ? ['--import', alias, timeMcp] : [timeMcp];
}

const drivers: Array<{ name: string; connect(aliased: boolean): Promise<Driven> }> = [
  {
    name: 'official Client 1.32.2',
    async connect(aliased) {
      const transport = new OfficialStdioClientTransport({
        command: process.execPath,
        args: serverArgs(aliased),
        env,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const client = new OfficialClient({ name: 'official', version: '1.0.0' });
      const transportErrors: string[] = [];
      client.onerror = (error) => transportErrors.push(String(error));
      await client.connect(transport);
      return {
        serverInfo: client.getServerVersion(),
        listTools: async () => (await client.listTools()).tools as Tool[],
        callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as Result,
        transportErrors,
        stderr: () => stderr,
        close: () => client.close(),
      };
    },
  },
  {
    name: 'x-mcp Client',
    async connect(aliased) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: serverArgs(aliased),
        env,
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const transportErrors: string[] = [];
      const client = new Client({ name: 'x-mcp', version: '1.0.0' });
      client.onerror = (error) => transportErrors.push(String(error));
      await client.connect(transport);
      return {
        serverInfo: client.serverInfo,
        listTools: async () => (await client.listTools()).tools as Tool[],
        callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as Result,
        transportErrors,
        stderr: () => stderr,
        close: () => client.close(),
      };
    },
  },
];

/** Every tool, called with real arguments; the clock-bound ones with their answers normalized. */
async function transcript(client: Driven): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = { serverInfo: client.serverInfo };
  answers.tools = await client.listTools();
  const call = (name: string, args: Record<string, unknown>) => client.callTool(name, args);
  answers.convert = await call('convert_time', {
    sourceTimezone: 'Asia/Shanghai',
    targetTimezone: 'Europe/London',
    time: '2025-03-23 12:30:00',
  });
  answers.daysInMonth = await call('days_in_month', { date: '2024-02-15' });
  answers.timestamp = await call('get_timestamp', { time: '2025-01-01 00:00:00.000' });
  answers.weekYear = await call('get_week_year', { date: '2025-03-23' });
  answers.relative = await call('relative_time', { time: '2000-01-01 00:00:00' });
  // The schema's default format (YYYY-MM-DD HH:mm:ss) applied by the SDK; the clock digits normalized.
  answers.currentDefault = JSON.parse(
    JSON.stringify(await call('current_time', { timezone: 'Europe/Paris' })).replace(/\d/g, '9'),
  );
  answers.currentGuessed = JSON.parse(
    JSON.stringify(await call('current_time', { format: 'YYYY/MM' })).replace(/\d/g, '9'),
  );
  answers.badEnum = await call('current_time', { format: 'HH' });
  answers.missingArgument = await call('convert_time', { sourceTimezone: 'Asia/Shanghai' });
  answers.unknownTool = await call('no_such_tool', {});
  return answers;
}

/**
 * The differences @x/compat documents (README, "differences from 1.x"), projected away: the JSON Schema
 * dialect of tool schemas (x-mcp emits 2020-12, 1.x draft-07) and the texts of failed-call results
 * (x-mcp's messages); what is kept of a failed call is that it failed and which tool or field it names.
 * E.g. 1.x `MCP error -32602: Tool no_such_tool not found`, @x/compat `Unknown tool: no_such_tool`;
 * 1.x `MCP error -32602: Input validation error: Invalid arguments for tool current_time: Invalid
 * option: … at format`, @x/compat `Invalid arguments for tool current_time: format: Invalid option: …`.
 */
function documentedDifferencesAside(answers: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(answers) as Record<string, unknown> & { tools: Tool[] };
  for (const tool of copy.tools) delete tool.inputSchema.$schema;
  const failed = (key: string, names: string) => {
    const result = copy[key] as Result;
    copy[key] = { isError: result.isError, names: JSON.stringify(result.content).includes(names) };
  };
  failed('badEnum', 'format');
  failed('missingArgument', 'targetTimezone');
  failed('unknownTool', 'no_such_tool');
  return copy;
}

const text = (result: unknown) => ((result as Result).content[0] as { text: string }).text;

describe('time-mcp 1.0.6 (community server on the official SDK): genuine vs aliased onto @x/compat, over stdio', () => {
  for (const driver of drivers) {
    it(`driven by the ${driver.name}: the same answers`, async () => {
      const run = async (aliased: boolean) => {
        const client = await driver.connect(aliased);
        try {
          return { answers: await transcript(client), client };
        } finally {
          await client.close();
        }
      };
      const genuine = await run(false);
      const compat = await run(true);
      expect(compat.client.stderr()).toContain('X_COMPAT_ALIAS active');
      expect(genuine.client.stderr()).not.toContain('X_COMPAT_ALIAS active');

      // The genuine server's answers, so that a broken run on either side cannot pass as "equal".
      const g = genuine.answers;
      expect(g.serverInfo).toEqual({ name: 'time-mcp', version: '1.0.6' });
      expect((g.tools as Tool[]).map((tool) => tool.name).sort()).toEqual([
        'convert_time',
        'current_time',
        'days_in_month',
        'get_timestamp',
        'get_week_year',
        'relative_time',
      ]);
      expect(text(g.convert)).toBe(
        'Current time in Asia/Shanghai is 2025-03-23 12:30:00, and the time in Europe/London is 2025-03-23 04:30:00. The time difference is -8 hours.',
      );
      expect(text(g.daysInMonth)).toBe('The number of days in month is 29.');
      expect(text(g.timestamp)).toBe(
        'The timestamp of 2025-01-01 00:00:00.000 (parsed as UTC) is 1735689600000 ms.',
      );
      expect(text(g.weekYear)).toBe('The week of the year is 13, and the isoWeek of the year is 12.');
      expect(text(g.relative)).toMatch(/^\d+ years ago$/);
      expect(text(g.currentDefault)).toBe(
        'Current UTC time is 9999-99-99 99:99:99, and the time in Europe/Paris is 9999-99-99 99:99:99.',
      );
      expect(text(g.currentGuessed)).toBe(
        'Current UTC time is 9999/99, and the time in Asia/Tokyo is 9999/99.',
      );
      for (const key of ['badEnum', 'missingArgument', 'unknownTool'])
        expect((g[key] as Result).isError, key).toBe(true);

      expect(documentedDifferencesAside(compat.answers)).toEqual(documentedDifferencesAside(g));
      // The schemas themselves: the same properties, required fields, enum and default; only the dialect
      // differs.
      const schemaOf = (answers: Record<string, unknown>, name: string) =>
        (answers.tools as Tool[]).find((tool) => tool.name === name)?.inputSchema;
      expect(schemaOf(g, 'current_time')?.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(schemaOf(compat.answers, 'current_time')?.$schema).toBe(
        'https://json-schema.org/draft/2020-12/schema',
      );

      // The server writes "Starting Time MCP server..." to stdout before it connects (not JSON-RPC):
      // on both SDKs the same; each client reports that one line as a parse error and goes on.
      expect(genuine.client.transportErrors).toHaveLength(1);
      expect(genuine.client.transportErrors[0]).toMatch(/JSON/);
      expect(compat.client.transportErrors).toEqual(genuine.client.transportErrors);
    }, 60_000);
  }
});

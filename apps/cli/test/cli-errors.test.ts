import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, runCli, startCli, unusedPort } from './helpers/cli-process.js';

/** A TCP server that accepts connections and never answers: a hung MCP server. */
async function silentServer(): Promise<{ url: string; connected: Promise<void>; server: Server }> {
  const sockets = new Set<Socket>();
  let onConnection = (): void => {};
  const connected = new Promise<void>((resolve) => {
    onConnection = resolve;
  });
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.resume();
    onConnection();
  });
  server.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/mcp`, connected, server };
}

beforeAll(assertBuilt);
afterEach(killAll);

describe('usage errors exit 2 with a helpful message', () => {
  const cases: Array<{ args: string[]; message: RegExp }> = [
    { args: [], message: /Usage: x-mcp <command> \[options\] <target>/ },
    { args: ['frobnicate', 'http://127.0.0.1:1/mcp'], message: /unknown command 'frobnicate'/ },
    {
      args: ['tols', 'http://127.0.0.1:1/mcp'],
      message: /unknown command 'tols' \(did you mean 'tools'\?\)/,
    },
    { args: ['tools'], message: /missing target: give the server URL last/ },
    { args: ['read', 'test://static-text'], message: /'test:\/\/static-text' is not a server URL/ },
    { args: ['call', 'http://127.0.0.1:1/mcp'], message: /missing <tool>/ },
    {
      args: ['call', 'x', 'oops', 'http://127.0.0.1:1/mcp'],
      message: /expected key=value, key:=json or a JSON object, got 'oops'/,
    },
    {
      args: ['tools', '--timout', '5', 'http://127.0.0.1:1/mcp'],
      message: /unknown option --timout \(did you mean --timeout\?\)/,
    },
    {
      args: ['tools', '--timeout', 'soon', 'http://127.0.0.1:1/mcp'],
      message: /--timeout expects a positive number/,
    },
    {
      args: ['tools', '--port', '1', 'http://127.0.0.1:1/mcp'],
      message: /option --port does not apply to tools/,
    },
    { args: ['tools', '-H', 'no-colon', 'http://127.0.0.1:1/mcp'], message: /-H expects 'Name: value'/ },
    {
      args: ['tools', '--protocol-version', '1999-01-01', 'http://127.0.0.1:1/mcp'],
      message: /unsupported --protocol-version/,
    },
    { args: ['tools', '-H', 'A: b', '--', 'node', 'x.js'], message: /-H\/--header applies to URL targets/ },
    { args: ['tools', '--'], message: /nothing after --/ },
    {
      args: ['complete', 'greet', 'x', 'http://127.0.0.1:1/mcp'],
      message: /expected prompt:<name> or resource:<uri-template>/,
    },
    { args: ['serve', '--transport', 'carrier-pigeon'], message: /unknown --transport carrier-pigeon/ },
    { args: ['serve', '--port', '70000'], message: /--port expects 0…65535/ },
  ];
  for (const { args, message } of cases) {
    it(`x-mcp ${args.join(' ')}`, async () => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
    });
  }

  it('points to the command help', async () => {
    const run = await runCli(['call', 'http://127.0.0.1:1/mcp']);
    expect(run.stderr).toContain("Run 'x-mcp help call' for usage.");
  });

  it('--help and help <command> print to stdout and exit 0', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    const call = await runCli(['help', 'call']);
    expect(call.stdout).toMatch(/^Usage: x-mcp call <tool>/);
    const flag = await runCli(['listen', '-h']);
    expect(flag.stdout).toContain('--subscribe <uri>');
  });
});

describe('connection failures exit 3', () => {
  it('http: connection refused', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}/mcp`;
    const run = await runCli(['tools', url]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`x-mcp: error: cannot connect to ${url}: connection refused (ECONNREFUSED)`);
  });

  it('ws: connection refused', async () => {
    const run = await runCli(['ping', `ws://127.0.0.1:${await unusedPort()}/mcp`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('connection refused (ECONNREFUSED)');
  });

  it('stdio: the server command does not exist', async () => {
    const run = await runCli(['info', '--', 'x-mcp-no-such-server-command']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'Failed to start MCP server "x-mcp-no-such-server-command": command not found',
    );
  });

  it('--json also prints the error as JSON on stdout', async () => {
    const run = await runCli(['info', '--json', `http://127.0.0.1:${await unusedPort()}/mcp`]);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { exitCode: 3 } });
  });

  it('--timeout bounds connecting to a server that never answers', async () => {
    const silent = await silentServer();
    try {
      const run = await runCli(['tools', '--timeout', '300', silent.url]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain(`timed out after 300 ms connecting to ${silent.url}`);
    } finally {
      silent.server.close();
    }
  });
});

describe('Ctrl-C', () => {
  it('interrupts a hung run: exit 130', async () => {
    const silent = await silentServer();
    try {
      const cli = startCli(['tools', silent.url]);
      await silent.connected;
      cli.child.kill('SIGINT');
      expect(await cli.exited()).toBe(130);
      expect(cli.stderr()).toContain('interrupted');
    } finally {
      silent.server.close();
    }
  });
});

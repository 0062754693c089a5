// The official conformance suite against one server program written for the official SDK 1.x, run
// twice: on the genuine SDK, and with its SDK imports aliased onto @x/compat. Two programs: the
// conformance fixture written for the 1.x API (`test/fixtures/official-conformance-server.mjs`, every
// tool, resource and prompt the scenarios call) and `@modelcontextprotocol/server-everything` (pinned,
// a published server that is not a fixture). Each run gets its own server process on a free 127.0.0.1
// port; the outcome of every scenario (passed: no FAILURE check) is compared between the two.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const COMPAT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = (name) => realpathSync(join(COMPAT, 'node_modules', ...name.split('/')));
const EVERYTHING = join(pkg('@modelcontextprotocol/server-everything'), 'dist', 'index.js');
const CLI = join(pkg('@modelcontextprotocol/conformance'), 'dist', 'index.js');
// The CLI imports `globSync` from 'fs' (Node 22+); apps/conformance keeps the Node 20 resolve hook.
const CLI_SHIM = join(COMPAT, '..', '..', 'apps', 'conformance', 'shim', 'register.mjs');
const ALIAS = join(COMPAT, 'test', 'fixtures', 'alias-official-sdk.mjs');
const MOVE_PORT = join(COMPAT, 'test', 'fixtures', 'listen-on-free-port.mjs');
const FIXTURE = join(COMPAT, 'test', 'fixtures', 'official-conformance-server.mjs');
const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Scenarios whose outcome differs on purpose, by server program: each passes on @x/compat and fails on
 * the genuine SDK, because x-mcp does more than 1.x there (see the README). Any other difference is a
 * regression. The fixture has none: it uses `createMcpExpressApp` (1.x's Host guard on) and answers a
 * request without a session itself, so neither x-mcp extra is reached.
 */
export const KNOWN_DIFFERENCES = {
  fixture: {},
  'fixture-web': {},
  everything: {
    'dns-rebinding-protection': "x-mcp's Host/Origin guard is always on; 1.x's is off unless enabled",
    'sep-2164-resource-not-found': 'x-mcp answers an unknown resource with -32002',
    'input-required-result-ignore-extra-params':
      "x-mcp's answer to a 2026-07-28 request the 1.x server does not serve",
    'input-required-result-missing-input-response':
      "x-mcp's answer to a 2026-07-28 request the 1.x server does not serve",
    'input-required-result-unsupported-methods':
      "x-mcp's answer to a 2026-07-28 request the 1.x server does not serve",
  },
};

/** The two servers under test: the same program, on the genuine SDK and aliased onto @x/compat. */
export const SIDES = [
  { name: 'genuine', nodeArgs: [] },
  { name: 'compat', nodeArgs: ['--import', ALIAS] },
];

/**
 * The server programs: each a command line after `node <side's args>`, and the environment it needs.
 * server-everything listens on port 3001, moved to a free one on 127.0.0.1; the fixture picks its own.
 */
export const SERVERS = {
  fixture: { args: [FIXTURE], env: {} },
  'fixture-web': { args: [FIXTURE, '--web'], env: {} },
  everything: {
    args: ['--import', MOVE_PORT, EVERYTHING, 'streamableHttp'],
    env: { X_COMPAT_MOVE_PORT: '3001' },
  },
};

/**
 * Starts a server program (`SERVERS`) over Streamable HTTP and resolves once it listens. `stop()` ends
 * it and waits for its exit.
 */
export function startServer(server, nodeArgs) {
  const { args, env } = SERVERS[server];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  return new Promise((resolve, reject) => {
    const take = (chunk) => {
      output += chunk;
      const port = /LISTENING (\d+)/.exec(output)?.[1];
      if (port !== undefined) resolve({ url: `http://127.0.0.1:${port}/mcp`, output: () => output, stop });
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('exit', (code) =>
      reject(new Error(`${server} exited (${code}) before listening:\n${output}`)),
    );
  });
}

/** Runs the conformance CLI (`server --url … <args>`) into `outDir`; resolves with its exit code and output. */
function runCli(url, args, outDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', CLI_SHIM, CLI, 'server', '--url', url, ...args, '-o', outDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** Scenario → passed, from the CLI's `checks.json` files (a scenario without one crashed: failed). */
function outcomes(outDir) {
  const found = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = join(dir, entry.name);
      if (!TIMESTAMP.test(entry.name)) {
        walk(full);
        continue;
      }
      const scenario = relative(outDir, full)
        .replace(TIMESTAMP, '')
        .replace(/^server-/, '');
      const file = join(full, 'checks.json');
      const checks = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [{ status: 'FAILURE' }];
      found.set(
        scenario,
        checks.every((check) => check.status !== 'FAILURE'),
      );
    }
  };
  walk(outDir);
  return found;
}

/**
 * Runs the suite (CLI arguments `args`, e.g. `['--requirements', '2025-11-25']` or `['--scenario',
 * 'ping']`) against both sides of one server program (`SERVERS`; default the fixture). Returns each
 * side's outcomes and seconds, and the scenarios whose outcome differs.
 */
export async function compareConformance({ server: program = 'fixture', args, outDir }) {
  rmSync(outDir, { recursive: true, force: true });
  // Both sides at once: each has its own server process, port and output folder.
  const runs = await Promise.all(
    SIDES.map(async (side) => {
      const started = Date.now();
      const dir = join(outDir, side.name);
      mkdirSync(dir, { recursive: true });
      const server = await startServer(program, side.nodeArgs);
      try {
        const { output } = await runCli(server.url, args, dir);
        const aliased = server.output().includes('X_COMPAT_ALIAS active');
        if (aliased !== (side.name === 'compat'))
          throw new Error(`${side.name}: alias ${aliased ? 'on' : 'off'}`);
        return [side.name, { outcomes: outcomes(dir), seconds: (Date.now() - started) / 1000, output }];
      } finally {
        await server.stop();
      }
    }),
  );
  const sides = Object.fromEntries(runs);
  const scenarios = new Set([...sides.genuine.outcomes.keys(), ...sides.compat.outcomes.keys()]);
  const differing = [...scenarios]
    .filter((scenario) => sides.genuine.outcomes.get(scenario) !== sides.compat.outcomes.get(scenario))
    .sort();
  return { sides, differing };
}

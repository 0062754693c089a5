import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerdBinary } from './fixtures/binaries.js';
import { bundleFor, scratchDir } from './fixtures/bundle.js';
import { startServer } from './fixtures/runtime-process.js';
import {
  bothErasReports,
  expectCancellation,
  expectNoErrorsLogged,
  expectServedInBothEras,
  startNodeMcpServer,
} from './fixtures/smoke.js';

// Issue 30, item 2: the Web-standard server handler and the client run on Cloudflare's workerd (the
// `workerd` npm package's binary, from `@cloudflare/workerd-linux-64`). The worker
// (fixtures/workerd-worker.ts) is bundled the way wrangler bundles one and runs as a module worker
// without `nodejs_compat`: only Web APIs. One workerd process serves both tests.

const scratch = scratchDir('x-mcp-workerd-');
let workerd: Awaited<ReturnType<typeof startServer>> | undefined;
let base: string;

/**
 * The worker, and a network service for its outbound `fetch`: workerd's default outbound reaches only
 * public addresses, the client in the worker needs the Node server on 127.0.0.1. Port 0 in the config;
 * workerd reports the bound port on the control descriptor (`--control-fd`).
 */
function config(bundle: string, compatibilityDate: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .mcpWorker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const mcpWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "${basename(bundle)}")],
  compatibilityDate = "${compatibilityDate}",
  globalOutbound = "loopback",
);
`;
}

beforeAll(async () => {
  const binary = workerdBinary();
  const bundle = await bundleFor('workerd', 'workerd-worker.ts', scratch.path);
  const configFile = join(scratch.path, 'config.capnp');
  writeFileSync(configFile, config(bundle, binary.compatibilityDate));
  workerd = await startServer('workerd', binary.path, ['serve', configFile, '--control-fd=3'], {
    controlFd: 3,
    // On SIGTERM workerd drains: it waits for the requests it is still serving, the legacy SSE GET
    // among them, whose client is gone (it closed every socket) but which workerd only notices at the
    // stream's next write, a keep-alive comment 15 s later: the drain would last until our 5 s SIGKILL.
    // Nothing here tests a graceful shutdown.
    stopSignal: 'SIGKILL',
  });
  base = `http://127.0.0.1:${workerd.port}`;
});
afterAll(async () => {
  await workerd?.stop();
  scratch.dispose();
});

describe.concurrent('workerd', () => {
  it('serves both eras (and legacy SSE) from a module worker with the Web-standard handlers; the Node client calls a tool', async () => {
    await expectServedInBothEras(base, 'workerd');
    await expectCancellation(base);
    expectNoErrorsLogged(workerd?.stderr() ?? '');
  });

  it('runs the x-mcp client in a worker against a Node x-mcp server, both eras', async () => {
    await using node = await startNodeMcpServer();
    const response = await fetch(`${base}/client?url=${encodeURIComponent(node.url)}`, {
      signal: AbortSignal.timeout(20_000),
    });
    const body = await response.text();
    expect(response.status, body).toBe(200);
    expect(JSON.parse(body)).toEqual(bothErasReports('node', 'workerd'));
  });
});

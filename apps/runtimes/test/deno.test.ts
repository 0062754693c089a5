import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary } from './fixtures/binaries.js';
import { bundleFor, scratchDir } from './fixtures/bundle.js';
import { startServer, runToEnd } from './fixtures/runtime-process.js';
import {
  bothErasReports,
  expectServedInBothEras,
  expectCancellation,
  expectNoErrorsLogged,
  lastJsonLine,
  startNodeMcpServer,
} from './fixtures/smoke.js';

// Issue 30, item 2: the Web-standard server handler and the client run on Deno (the `deno` npm package's
// binary). The app is bundled with esbuild into one file (fixtures/deno-main.ts), so Deno resolves nothing.

// Only the network, only loopback: the bundle needs no file, environment or other access.
const PERMISSIONS = ['--allow-net=127.0.0.1', '--no-prompt'];

const scratch = scratchDir('x-mcp-deno-');
let deno: string;
let bundle: string;
beforeAll(async () => {
  deno = denoBinary();
  bundle = await bundleFor('deno', 'deno-main.ts', scratch.path);
});
afterAll(() => scratch.dispose());

describe.concurrent('Deno', () => {
  it('serves both eras (and legacy SSE) from Deno.serve with the Web-standard handlers; the Node client calls a tool', async () => {
    await using server = await startServer('deno (serve)', deno, ['run', ...PERMISSIONS, bundle, 'serve']);
    await expectServedInBothEras(`http://127.0.0.1:${server.port}`, 'deno');
    await expectCancellation(`http://127.0.0.1:${server.port}`);
    expectNoErrorsLogged(server.stderr());
  });

  it('runs the x-mcp client in Deno against a Node x-mcp server, both eras', async () => {
    await using node = await startNodeMcpServer();
    const stdout = await runToEnd('deno (client)', deno, ['run', ...PERMISSIONS, bundle, 'client', node.url]);
    expect(lastJsonLine(stdout)).toEqual(bothErasReports('node', 'deno'));
  });
});

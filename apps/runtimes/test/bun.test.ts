import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bunBinary } from './fixtures/binaries.js';
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

// Issue 30, item 2: the Web-standard server handler and the client run on Bun (the `bun` npm package's
// binary). The app is bundled with esbuild into one file (fixtures/bun-main.ts), so Bun resolves nothing.

const scratch = scratchDir('x-mcp-bun-');
let bun: string;
let bundle: string;
beforeAll(async () => {
  bun = bunBinary();
  bundle = await bundleFor('bun', 'bun-main.ts', scratch.path);
});
afterAll(() => scratch.dispose());

describe.concurrent('Bun', () => {
  it('serves both eras (and legacy SSE) from Bun.serve with the Web-standard handlers; the Node client calls a tool', async () => {
    await using server = await startServer('bun (serve)', bun, [bundle, 'serve']);
    await expectServedInBothEras(`http://127.0.0.1:${server.port}`, 'bun');
    await expectCancellation(`http://127.0.0.1:${server.port}`);
    expectNoErrorsLogged(server.stderr());
  });

  it('runs the x-mcp client in Bun against a Node x-mcp server, both eras', async () => {
    await using node = await startNodeMcpServer();
    const stdout = await runToEnd('bun (client)', bun, [bundle, 'client', node.url]);
    expect(lastJsonLine(stdout)).toEqual(bothErasReports('node', 'bun'));
  });
});

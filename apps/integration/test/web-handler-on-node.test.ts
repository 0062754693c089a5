import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/web-handler-on-node.mjs', import.meta.url));

// Issue #25, item 6: "a Web handler passed Node's (req, res) either adapts or throws a TypeError that
// says to use the Node adapter" (it used to hang). The fixture runs the built packages in a child
// process, as a user's server would: the request is answered 500 with the hint, and the handler's
// TypeError reaches the process (an unhandled rejection ends it with the message on stderr).
describe('a Web-standard handler given to http.createServer directly', () => {
  it.each([
    ['streamable-http', '@x/transport-streamable-http/node'],
    ['sse', '@x/transport-sse/node'],
  ])(
    '%s: answers 500 naming toNodeHandler and throws a TypeError, never hangs',
    async (kind, entry) => {
      const child = spawn(process.execPath, [FIXTURE, kind], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
        });
        const exited = once(child, 'exit');
        const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
        const { port } = JSON.parse((await lines.next()).value as string) as { port: number };
        const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
          signal: AbortSignal.timeout(10_000),
        });
        expect(response.status).toBe(500);
        const body = (await response.json()) as { error: { message: string } };
        expect(body.error.message).toContain(`toNodeHandler from '${entry}'`);
        const [code] = await exited;
        expect(code).not.toBe(0);
        expect(stderr).toMatch(/TypeError: This is a Web-standard handler .* toNodeHandler from/);
      } finally {
        child.kill();
      }
    },
    30_000,
  );
});

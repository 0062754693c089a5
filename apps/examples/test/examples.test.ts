import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The examples run as built JavaScript (Node 20 cannot run .ts), like `pnpm examples` does; the root
// `pnpm test` builds every workspace before vitest starts.
const runner = fileURLToPath(new URL('../dist/examples/run-all.js', import.meta.url));

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function runAll(): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [runner], { timeout: 170_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('pnpm examples (built runner)', () => {
  let result: RunResult;

  beforeAll(async () => {
    if (!existsSync(runner)) throw new Error(`${runner} is missing: build @x/examples first (pnpm build)`);
    result = await runAll();
  }, 180_000);

  it('exits 0 with every example passing', () => {
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('FAIL');
    expect(result.stdout).toContain('all 9 examples passed');
    expect(result.code).toBe(0);
  });

  it.each([
    ['stdio', ['add(2, 3) = 5', 'server exited with code 0 after stdin closed']],
    [
      'streamable-http-node',
      [
        'modern client (2026-07-28): Hello, Ada (2026-07-28)',
        'legacy client (2025-11-25): Hello, Ada (2025-11-25)',
        'legacy session ended by DELETE on close',
      ],
    ],
    [
      'web-standard-handler',
      [
        "modern (2026-07-28): shout('hello') = HELLO",
        'requests handled in-process: POST server/discover, POST tools/call',
        "legacy (2025-11-25): shout('hello') = HELLO",
      ],
    ],
    [
      'websocket',
      [
        'modern (2026-07-28): countdown → 3 progress updates, liftoff',
        'legacy (2025-11-25): countdown → 3 progress updates, liftoff',
        'legacy client got tools/list_changed pushed over the socket',
      ],
    ],
    [
      'elicitation-sampling-both-eras',
      [
        'legacy (2025-11-25): Lisbon: itinerary for "Plan 3 days in Lisbon"',
        'how the server asked: request elicitation/create, request sampling/createMessage',
        'modern (2026-07-28): Lisbon: itinerary for "Plan 3 days in Lisbon"',
        'how the server asked: input_required, input_required',
      ],
    ],
    ['custom-transport', [/contract kit: all \d+ scenarios passed/, "reverse('stressed') = desserts"]],
    [
      'protected-server',
      [
        'no token: 401, resource metadata at /.well-known/oauth-protected-resource/mcp names https://auth.example.com',
        'token for another audience: 401 invalid_token; token without mcp:tools: 403 insufficient_scope',
        'with a valid token: whoami = example-client with scopes mcp:tools',
      ],
    ],
    [
      'resilience',
      [
        'switched: websocket → streamable-http',
        'forecast re-sent over streamable-http after the WebSocket died: sunny',
        'restored: streamable-http → websocket',
        'WebSocket is back: switched back between requests',
        'stdio server crashed (exit code 3, its last stderr line reported) and was restarted once',
        'the call was repeated on the new process: report from process N',
      ],
    ],
    [
      'resilience-observability',
      [
        'GET /healthz → 200 {"status":"ok","details":{"sessions":0}}',
        'login arguments as logged: {"user":"ada","password":"[REDACTED]"}',
        'alert: tools/call p95 over 100 ms',
        'rate limited: error -32029',
        'heartbeat: the hung server was declared dead and the connection closed',
      ],
    ],
  ])('%s passes and prints its checks', (name, lines) => {
    // The runner prints `pass  <name> (…)`, then that example's own output indented below it.
    const section = result.stdout
      .split(/\n(?=pass |FAIL )/)
      .find((block) => block.startsWith(`pass  ${name} (`));
    expect(section, `no pass line for ${name}`).toBeDefined();
    for (const line of lines) {
      if (typeof line === 'string') expect(section).toContain(line);
      else expect(section).toMatch(line);
    }
  });
});

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue #25: `pnpm --dir apps/conformance server` ran pnpm's own built-in `server` command and exited 0
// doing nothing. Every command the README documents must name a script of this package, none may be
// shadowed by a pnpm built-in, and the fixture server must really serve when started that way.
const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const scripts = Object.keys(
  (JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts,
);
const readme = readFileSync(join(app, 'README.md'), 'utf8');
const documented = [...readme.matchAll(/pnpm --dir apps\/conformance ([\w:-]+)/g)].map(
  (match) => match[1] ?? '',
);
// pnpm commands that take precedence over a script of the same name (pnpm 10 `pnpm help`).
const PNPM_BUILTINS = new Set(
  'add audit bin config create deploy dlx doctor env exec fetch import init install link list ls outdated pack patch prune publish rebuild remove root server setup store unlink update why'.split(
    ' ',
  ),
);

describe('the conformance app’s documented commands', () => {
  it('name scripts of this package that no pnpm built-in shadows', () => {
    expect(documented.length).toBeGreaterThan(0);
    for (const name of documented) {
      expect(scripts).toContain(name);
      expect(PNPM_BUILTINS.has(name)).toBe(false);
    }
  });

  it('`pnpm --dir apps/conformance fixture:server` starts the fixture and it answers initialize', async () => {
    const child = spawn('pnpm', ['--dir', app, 'fixture:server'], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const match = /conformance server on (http:\/\/\S+)/.exec(out);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.once('exit', (code) =>
          reject(new Error(`the fixture exited with ${code} before serving: ${out}`)),
        );
      });
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        }),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
    } finally {
      // The whole group: pnpm, turbo's build step and the server.
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    }
  }, 120_000);
});

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../src/node/index.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileTokenStore', () => {
  it('keeps one entry per server in a file only its owner can read (0600)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'x-auth-'));
    const path = join(dir, 'nested', 'tokens.json');
    const store = new FileTokenStore({ path });
    expect(await store.get('https://a.example/mcp')).toBeUndefined();
    await Promise.all([
      store.set('https://a.example/mcp', {
        issuer: 'https://as.example',
        tokens: { accessToken: 'A', tokenType: 'Bearer' },
      }),
      store.set('https://b.example/mcp', { issuer: 'https://as.example', client: { clientId: 'c' } }),
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    const again = new FileTokenStore({ path });
    expect((await again.get('https://a.example/mcp'))?.tokens?.accessToken).toBe('A');
    expect((await again.get('https://b.example/mcp'))?.client?.clientId).toBe('c');
    await again.delete('https://a.example/mcp');
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')))).toEqual(['https://b.example/mcp']);
    expect(await again.get('__proto__')).toBeUndefined();
  });
});

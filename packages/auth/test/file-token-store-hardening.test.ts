// FileTokenStore against a local attacker (issue #35, finding 10): a planted symlink at the old,
// predictable temporary name, at the token file or as its folder; a folder others may write to.
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError } from '../src/index.js';
import { FileTokenStore } from '../src/node/index.js';

const STATE = { issuer: 'https://as.example', tokens: { accessToken: 'SECRET-A', tokenType: 'Bearer' } };
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'x-auth-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

describe('FileTokenStore refuses symlinks', () => {
  it('never writes through a symlink planted at the old <path>.<pid>.tmp name', async () => {
    const path = join(dir, 'tokens.json');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'untouched', { mode: 0o644 });
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    await new FileTokenStore({ path }).set('https://a.example/mcp', STATE);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    expect(JSON.parse(readFileSync(path, 'utf8'))['https://a.example/mcp'].tokens.accessToken).toBe(
      'SECRET-A',
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // No temporary file is left behind.
    expect(
      readdirSync(dir).filter((name) => name.endsWith('.tmp') && !name.includes(String(process.pid))),
    ).toEqual([]);
  });

  it('refuses a token file that is a symlink, for reading and for writing', async () => {
    const path = join(dir, 'tokens.json');
    const elsewhere = join(dir, 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ 'https://a.example/mcp': { issuer: 'https://evil.example' } }));
    symlinkSync(elsewhere, path);
    const store = new FileTokenStore({ path });
    const read = await failure(store.get('https://a.example/mcp'));
    expect(read.code).toBe('insecure_storage');
    expect(read.message).toContain('symlink');
    const write = await failure(store.set('https://a.example/mcp', STATE));
    expect(write.code).toBe('insecure_storage');
    expect(readFileSync(elsewhere, 'utf8')).not.toContain('SECRET-A');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  it('refuses a folder that is a symlink', async () => {
    const real = join(dir, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(dir, 'link'));
    const store = new FileTokenStore({ path: join(dir, 'link', 'tokens.json') });
    const error = await failure(store.set('https://a.example/mcp', STATE));
    expect(error.code).toBe('insecure_storage');
    expect(readdirSync(real)).toEqual([]);
  });
});

describe('FileTokenStore and folder modes', () => {
  it('creates a missing folder 0700', async () => {
    const path = join(dir, 'a', 'tokens.json');
    await new FileTokenStore({ path }).set('k', STATE);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
  });

  it('takes group and world write away from a folder of its own', async () => {
    const folder = join(dir, 'open');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    await new FileTokenStore({ path: join(folder, 'tokens.json') }).set('k', STATE);
    expect(statSync(folder).mode & 0o777).toBe(0o755);
  });

  it('refuses a shared sticky folder (the system temp folder) and leaves its mode alone', async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const error = await failure(new FileTokenStore({ path: join(shared, 'tokens.json') }).set('k', STATE));
    expect(error.code).toBe('insecure_storage');
    expect(error.message).toContain('writable by others');
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(existsSync(join(shared, 'tokens.json'))).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'refuses a folder another user owns and may write to (chown needs root)',
    async () => {
      const theirs = join(dir, 'theirs');
      mkdirSync(theirs);
      chmodSync(theirs, 0o777);
      chownSync(theirs, 65534, 65534);
      const error = await failure(new FileTokenStore({ path: join(theirs, 'tokens.json') }).set('k', STATE));
      expect(error.code).toBe('insecure_storage');
      expect(statSync(theirs).mode & 0o777).toBe(0o777);
    },
  );
});

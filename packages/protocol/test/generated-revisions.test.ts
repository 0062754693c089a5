import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../src/versions.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const out = mkdtempSync(path.join(tmpdir(), 'x-mcp-revisions-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Biome's fix of `text` as if it were `file` (the repo's settings for that path), as `pnpm gen` runs it. */
async function biomeFixed(file: string, text: string): Promise<string> {
  const biome = path.join(repo, 'node_modules/.bin/biome');
  const child = execFile(biome, ['check', '--write', `--stdin-file-path=${file}`], { cwd: repo });
  child.stdin?.end(text);
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`biome exited with ${code}`))));
  });
  return stdout;
}

describe('generated revision schemas', () => {
  it('are up to date with the vendored spec (tooling/spec; `pnpm gen` rewrites them)', async () => {
    await run(
      process.execPath,
      [path.join(repo, 'tooling/schema-tools/generate-revisions.mjs'), `--out=${out}`],
      {
        cwd: repo,
      },
    );
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const file = `packages/protocol/src/schemas/revisions/${version}.ts`;
      const fresh = await biomeFixed(file, readFileSync(path.join(out, `${version}.ts`), 'utf8'));
      expect(fresh, `${file} is stale: run \`pnpm gen\``).toBe(readFileSync(path.join(repo, file), 'utf8'));
    }
  }, 60_000);
});

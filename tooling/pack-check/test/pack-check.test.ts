// Packs every published package (every non-private package under packages/) and checks the tarballs the
// way a user gets them (issue 30, item 4): the packed package.json, publint, @arethetypeswrong/cli
// (ESM-only profile), then a fresh npm project with the tarballs installed runs a Node ESM app, a strict
// TypeScript app under node16 and bundler resolution, a DOM-only TypeScript app and a browser bundle.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs tooling script without type declarations
import * as check from '../pack-check.mjs';

const run = promisify(execFile);

type Packed = {
  pkg: { name: string; version: string; manifest: { scripts?: Record<string, string> }; dir: string };
  tarball: string;
  files: string[];
  packed: Record<string, unknown>;
};
type Checked = { ok: boolean; output: string; files?: string[] };

const dest = mkdtempSync(join(tmpdir(), 'x-mcp-pack-'));
let results: Packed[] = [];
let project = '';

beforeAll(async () => {
  // `pnpm test` has built already (turbo's cache makes this a no-op); run alone, this builds once.
  await run('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only'], {
    cwd: check.ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  results = await check.packAll(dest);
}, 300_000);

afterAll(() => {
  rmSync(dest, { recursive: true, force: true });
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

describe('every published package', () => {
  it('is found under packages/', () => {
    expect(results.map((r) => r.pkg.name)).toContain('@x/protocol');
    expect(results.length).toBeGreaterThanOrEqual(8);
  });

  it('packs a clean package.json, LICENSE, README and every file exports names', () => {
    expect(results.flatMap((r) => check.staticProblems(r))).toEqual([]);
  });

  it('builds before packing (prepack), so an unbuilt checkout never packs an empty tarball', () => {
    const missing = results
      .filter((r) => r.pkg.manifest.scripts?.prepack === undefined)
      .map((r) => r.pkg.name);
    expect(missing).toEqual([]);
  });

  it('says it is ESM-only in its README', async () => {
    const { readFileSync } = await import('node:fs');
    const silent = results
      .filter((r) => !/ESM[- ]only/i.test(readFileSync(join(r.pkg.dir, 'README.md'), 'utf8')))
      .map((r) => r.pkg.name);
    expect(silent).toEqual([]);
  });

  it('passes publint (strict)', async () => {
    const problems = await check.inBatches(results, 2, async (r: Packed) =>
      (await check.publintProblems(r.tarball)).map((p: string) => `${r.pkg.name}: ${p}`),
    );
    expect(problems.flat()).toEqual([]);
  }, 120_000);

  it('passes @arethetypeswrong with the esm-only profile of its CLI', async () => {
    const problems = await check.inBatches(results, 2, async (r: Packed) =>
      (await check.attwProblems(r.tarball)).map((p: string) => `${r.pkg.name}:\n${p}`),
    );
    expect(problems.flat()).toEqual([]);
  }, 180_000);
});

describe('a fresh npm project with the tarballs installed', () => {
  let nodeApp: Checked;
  let node16: Checked;
  let bundler: Checked;
  let browserTypes: Checked;
  let browserBundle: Checked;

  beforeAll(async () => {
    project = await check.installConsumer(results);
    const runNode = async (file: string): Promise<Checked> => {
      try {
        const { stdout } = await run(process.execPath, [file], { cwd: project, timeout: 60_000 });
        return { ok: true, output: stdout };
      } catch (error) {
        const e = error as { stdout?: string; stderr?: string };
        return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
      }
    };
    const bundle = async (): Promise<Checked> => {
      try {
        return await runNode(await check.bundleForBrowser(project));
      } catch (error) {
        return { ok: false, output: String(error) };
      }
    };
    const jobs: Array<() => Promise<Checked>> = [
      () => runNode('node-app.mjs'),
      () => check.typecheck(project, 'tsconfig.node16.json'),
      () => check.typecheck(project, 'tsconfig.bundler.json'),
      () => check.typecheck(project, 'tsconfig.browser.json'),
      bundle,
    ];
    [nodeApp, node16, bundler, browserTypes, browserBundle] = await check.inBatches(
      jobs,
      2,
      (job: () => Promise<Checked>) => job(),
    );
  }, 400_000);

  it('runs a Node ESM app: every entry point loads, a tool call in memory and over stdio', () => {
    expect(nodeApp.output).toContain('"inMemory":[{"type":"text","text":"5"}]');
    expect(nodeApp.output).toContain('"stdio":[{"type":"text","text":"42"}]');
    expect(nodeApp.ok).toBe(true);
  });

  it('typechecks a strict app (skipLibCheck: false) with module node16', () => {
    expect(node16.output).toBe('');
    expect(node16.ok).toBe(true);
  });

  it('typechecks the same app with moduleResolution bundler', () => {
    expect(bundler.output).toBe('');
    expect(bundler.ok).toBe(true);
  });

  it('typechecks the browser entry points with DOM types only: no @types/node is pulled in', () => {
    expect(browserTypes.output).toBe('');
    expect(browserTypes.ok).toBe(true);
    expect(browserTypes.files?.filter((file) => file.includes('/@types/node/'))).toEqual([]);
  });

  it('bundles a browser client app with esbuild --platform=browser, and the bundle runs', () => {
    expect(browserBundle.output).toContain('{"transports":3,"text":"echo"}');
    expect(browserBundle.ok).toBe(true);
  });
});

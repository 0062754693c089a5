import { build } from 'esbuild';
for (const rt of ['bun', 'deno']) {
  await build({
    entryPoints: ['apps/runtimes/test/fixtures/zz-probe.ts'],
    outfile: `/tmp/zz-${rt}.js`,
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: ['@x/source', rt],
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __xCreateRequire } from 'node:module'; const require = __xCreateRequire(import.meta.url);",
    },
  });
}

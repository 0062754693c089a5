import { defineConfig } from 'vitest/config';

// One root run so `pnpm test` (and CI) get a single pass/fail count across every package.
// `@x/source` makes workspace packages resolve to their TypeScript sources: tests need no build.
const conditions = ['@x/source', 'import', 'module', 'node', 'default'];
// Vitest also hands the SSR conditions to the test processes as Node `--conditions` flags, where they
// apply to `require()` too: with `import` among them a CommonJS package requiring a dual one gets its
// ESM namespace (Express 5's router: "isPromise is not a function"). Vite adds `import`/`require` per
// import and `default` itself, so they are left out here.
const ssrConditions = ['@x/source', 'module', 'node'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions: ssrConditions, externalConditions: ['@x/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'tooling/*/test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

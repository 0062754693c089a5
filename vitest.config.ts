import { defineConfig } from 'vitest/config';

// One root run so `pnpm test` (and CI) get a single pass/fail count across every package.
// `@x/source` makes workspace packages resolve to their TypeScript sources: tests need no build.
const conditions = ['@x/source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@x/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'tooling/*/test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

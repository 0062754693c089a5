import { describe, expect, it } from 'vitest';
import { generateSchemaFiles } from '../scripts/generate-schema-files.js';

describe('generated schema files', () => {
  it('are up to date with the zod definitions (`pnpm gen` rewrites them)', async () => {
    const files = generateSchemaFiles();
    expect([...files.keys()].sort()).toEqual([
      'checks.ts',
      'deferred-handles.ts',
      'guards.ts',
      'message-types.ts',
      'schema-values.ts',
    ]);
    for (const [file, text] of files)
      await expect(
        text,
        `packages/protocol/src/schemas/generated/${file} is stale: run \`pnpm gen\``,
      ).toMatchFileSnapshot(`../src/schemas/generated/${file}`);
  });
});

import { describe, expect, it } from 'vitest';
import { generateChecks } from '../scripts/generate-checks.js';

describe('generated checks', () => {
  it('are up to date with the schemas (`npx vitest run -u` regenerates them)', async () => {
    const { checks, guards } = generateChecks();
    await expect(checks).toMatchFileSnapshot('../src/schemas/generated/checks.ts');
    await expect(guards).toMatchFileSnapshot('../src/schemas/generated/guards.ts');
  });
});

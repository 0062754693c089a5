import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

// The root README's auth sections show these files verbatim; `pnpm --filter @x/examples typecheck`
// checks the files, this test that the README still shows them.
const README = new URL('../../../README.md', import.meta.url);

async function firstTsBlockUnder(heading: string): Promise<string> {
  const text = await readFile(README, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `README has no "## ${heading}" section`).toBeGreaterThan(-1);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(start))?.[1];
  expect(block, `no ts block under "## ${heading}"`).toBeDefined();
  return block ?? '';
}

describe('README auth sections', () => {
  it.each([
    ['Protect a server', 'readme/protect-a-server.ts'],
    ['Connect to a protected server', 'readme/connect-to-a-protected-server.ts'],
  ])('"%s" shows %s', async (heading, file) => {
    const code = await readFile(new URL(file, import.meta.url), 'utf8');
    expect(await firstTsBlockUnder(heading)).toBe(code);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '../../..');
const packages = join(repo, 'packages');

function builtModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return builtModules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

// V8 keeps a module's source text for as long as the module lives, as Latin-1 when every character
// fits and as UTF-16 otherwise: a single "\uFFFD" written out literally once doubled @x/protocol's
// 234 KB index.js to 468 KB of heap in every process. The build writes ASCII (rolldown `charset`).
describe('built packages', () => {
  const files = readdirSync(packages).flatMap((name) => builtModules(join(packages, name, 'dist')));

  it('has dist modules to check (run after the build)', () => {
    expect(files.length).toBeGreaterThan(8);
  });

  it('are plain ASCII', () => {
    const offenders = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const at = text.search(/[\u0080-\uffff]/);
      return at === -1
        ? []
        : [`${relative(repo, file)}: ${JSON.stringify(text.slice(Math.max(0, at - 30), at + 5))}`];
    });
    expect(offenders).toEqual([]);
  });
});

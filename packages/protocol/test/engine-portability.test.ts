import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const engineDir = join(import.meta.dirname, '..', 'src', 'engine');

describe('engine: runs on any JS runtime', () => {
  it('imports no node: module and nothing outside @x/protocol but zod', () => {
    for (const file of readdirSync(engineDir)) {
      const source = readFileSync(join(engineDir, file), 'utf8');
      const specifiers = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      for (const specifier of specifiers) {
        expect(specifier.startsWith('.') || specifier === 'zod', `${file}: ${specifier}`).toBe(true);
      }
      // Node-only globals only behind a guarded lookup (`globalThis.process?.…`), never bare.
      expect(source, file).not.toMatch(/\bprocess\.|\bBuffer\b|setImmediate/);
    }
  });
});

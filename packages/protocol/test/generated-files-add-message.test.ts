import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// ARCHITECTURE.md "Add a message type", followed on a copy of the package: the toy message is written
// once (its module, the barrel, deferred-load.ts) and the generator derives the rest. The copy sits in
// the package (so it resolves zod) and is removed afterwards.
const pkg = fileURLToPath(new URL('..', import.meta.url));
const copy = mkdtempSync(path.join(pkg, '.gen-toy-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function edit(file: string, change: (text: string) => string): void {
  const full = path.join(copy, file);
  writeFileSync(full, change(readFileSync(full, 'utf8')));
}

describe('adding a message type (ARCHITECTURE.md)', () => {
  it('needs one definition, one barrel line and one deferred-load line; the generator makes the rest', async () => {
    cpSync(path.join(pkg, 'src'), path.join(copy, 'src'), { recursive: true });
    cpSync(path.join(pkg, 'scripts'), path.join(copy, 'scripts'), { recursive: true });
    // Step 1: the zod definition and its type, with the check it will have.
    edit('src/schemas/roots.ts', (text) =>
      text
        .replace('import {\n', 'import {\n  isToyEchoResult,\n')
        .concat(
          '\n/** A toy result. */\n',
          'export const ToyEchoResultSchema = lazySchema(\n',
          '  () => realSchema(ResultSchema).extend({ echo: z.string() }),\n',
          '  isToyEchoResult,\n',
          ');\n',
          'export type ToyEchoResult = z.infer<typeof ToyEchoResultSchema>;\n',
        ),
    );
    // Step 2: the barrel.
    edit('src/schemas/index.ts', (text) =>
      text.concat(
        "export { ToyEchoResultSchema } from './roots.js';\n",
        "export type { ToyEchoResult } from './roots.js';\n",
      ),
    );
    // Step 3: the client validates it, so it is deferred.
    edit('src/schemas/deferred-load.ts', (text) =>
      text.concat("export { ToyEchoResultSchema } from './roots.js';\n"),
    );
    // Step 4: the generator.
    const { generateSchemaFiles } = (await import(
      /* @vite-ignore */ path.join(copy, 'scripts/generate-schema-files.ts')
    )) as typeof import('../scripts/generate-schema-files.js');
    const files = generateSchemaFiles();

    expect(files.get('checks.ts')).toMatch(
      /^export function isToyEchoResult\(value: unknown\): boolean \{$/m,
    );
    expect(files.get('guards.ts')).toContain(
      'export const isToyEchoResult = checks.isToyEchoResult as (value: unknown) => value is ToyEchoResult;',
    );
    expect(files.get('schema-values.ts')).toContain('  ToyEchoResultSchema,\n');
    expect(files.get('message-types.ts')).toContain('  ToyEchoResult,\n');
    expect(files.get('deferred-handles.ts')).toContain(
      "export const DeferredToyEchoResultSchema = /* @__PURE__ */ deferredHandle('ToyEchoResultSchema', isToyEchoResult);",
    );
    // The real package is untouched: its files match the generator run on it (generated-files.test.ts).
    expect(readFileSync(path.join(pkg, 'src/schemas/generated/schema-values.ts'), 'utf8')).not.toContain(
      'Toy',
    );
  });
});

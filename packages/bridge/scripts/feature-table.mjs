// `pnpm --filter @x/bridge docs:features`: renders the era-translation feature table of
// test/feature-cases.ts into the `<!-- generated:bridge-features -->` block of docs/bridge.md.
// `--check`: writes nothing, exits 1 when the block is stale. The cases file is data only, so it is
// loaded by transpiling it (type annotations dropped) without the tests that run it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const CASES_PATH = fileURLToPath(new URL('../test/feature-cases.ts', import.meta.url));
export const DOC_PATH = fileURLToPath(new URL('../../../docs/bridge.md', import.meta.url));
export const BLOCK_NAME = 'bridge-features';

/** `DIRECTIONS` and `FEATURE_CASES` of test/feature-cases.ts. */
export async function loadCases() {
  const source = readFileSync(CASES_PATH, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`);
}

const cell = (text) => text.replaceAll('|', '\\|');

/** The Markdown table: a row per feature, a column per direction, what the test does last. */
export function renderFeatureTable({ DIRECTIONS, FEATURE_CASES }) {
  const lines = [
    `| feature | ${DIRECTIONS.map((d) => cell(d.label)).join(' | ')} | what the test does |`,
    `| --- | ${DIRECTIONS.map(() => '---').join(' | ')} | --- |`,
  ];
  for (const c of FEATURE_CASES) {
    const cells = DIRECTIONS.map((d) => {
      const text = c.cells[d.id];
      if (text === undefined) throw new Error(`feature-cases: ${c.id} has no cell for ${d.id}`);
      return cell(text);
    });
    lines.push(`| ${cell(c.feature)} | ${cells.join(' | ')} | ${cell(c.exercise)} |`);
  }
  return lines.join('\n');
}

const BLOCK = /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g;

/** `doc` with the block `name` replaced by `body`; throws when the document lacks the block. */
export function renderBlock(doc, name, body) {
  let found = false;
  const rendered = doc.replace(BLOCK, (whole, blockName) => {
    if (blockName !== name) return whole;
    found = true;
    return `<!-- generated:${name} -->\n${body}\n<!-- /generated:${name} -->`;
  });
  if (!found)
    throw new Error(
      `feature-table: the document lacks <!-- generated:${name} --> … <!-- /generated:${name} -->`,
    );
  return rendered;
}

/** docs/bridge.md as it should be: the committed prose, the table from the cases. */
export async function renderDoc(doc = readFileSync(DOC_PATH, 'utf8')) {
  return renderBlock(doc, BLOCK_NAME, renderFeatureTable(await loadCases()));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const committed = readFileSync(DOC_PATH, 'utf8');
  const rendered = await renderDoc(committed);
  if (process.argv.includes('--check')) {
    if (rendered !== committed) {
      console.error('docs/bridge.md is stale: run `pnpm --filter @x/bridge docs:features`');
      process.exit(1);
    }
  } else if (rendered !== committed) {
    writeFileSync(DOC_PATH, rendered);
    console.log('docs/bridge.md: feature table rewritten');
  } else {
    console.log('docs/bridge.md: feature table current');
  }
}

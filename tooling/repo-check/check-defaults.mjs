// Repo check (issue 36 §2): every default is a named, exported constant, and one name has one value.
// `checkInlineDefaults` refuses a number written inline as a fallback (`?? 10_000`, `|| 500`, a
// destructuring or parameter default `= 30_000`); `checkDefaultConstants` refuses two packages exporting a
// `DEFAULT_*` constant of the same name with different values. check-imports.mjs runs both.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Numbers a fallback may name inline: "none", "one", "no limit" are not tunable defaults. */
const TRIVIAL_NUMBERS = new Set([0, 1, -1]);

/** The comment that lets one line keep an inline number; the reason after the colon is required. */
const INLINE_OK = /\/\/\s*inline-default-ok:\s*\S/;

const INLINE_REASON =
  'a default written inline cannot be found, documented or shared; declare an exported, documented `DEFAULT_<WHAT>_<UNIT>` constant (a limit several transports share goes into packages/protocol/src/transports/limit-defaults.ts) and use it, or add `// inline-default-ok: <reason>` to the line';

// A numeric literal, or a product/sum of them (`30 * 60_000`).
const NUMBER = String.raw`-?\s*\d[\d_]*(?:\.\d+)?(?:e\d+)?(?:\s*[*+]\s*\d[\d_]*(?:\.\d+)?)*`;

const INLINE_PATTERNS = [
  { kind: '`??` fallback', pattern: new RegExp(String.raw`\?\?\s*(${NUMBER})(?![\w.])`, 'g') },
  { kind: '`||` fallback', pattern: new RegExp(String.raw`\|\|\s*(${NUMBER})(?![\w.])`, 'g') },
  // `{ timeoutMs = 30_000 }` or `(limit = 100)`: an identifier after `{`, `(` or `,`, then `= <number>`
  // before `,`, `}` or `)`. Object literals use `:`, assignments end in `;`, so this is a binding default.
  {
    kind: 'destructuring or parameter default',
    pattern: new RegExp(
      String.raw`[{(,]\s*[A-Za-z_$][\w$]*\s*(?::\s*[A-Za-z_$][\w$]*\s*)?=\s*(${NUMBER})\s*(?=[,})])`,
      'g',
    ),
  },
];

function walk(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (
      /\.(m|c)?[jt]sx?$/.test(entry) &&
      !/\.d\.ts$/.test(entry) &&
      !/\.test\.[cm]?[jt]sx?$/.test(entry)
    )
      out.push(full);
  }
  return out;
}

function sourceFiles(packagesDir) {
  const files = [];
  for (const entry of readdirSync(packagesDir)) {
    const srcDir = join(packagesDir, entry, 'src');
    if (existsSync(srcDir) && statSync(srcDir).isDirectory()) walk(srcDir, files);
  }
  return files;
}

/**
 * Blanks comments and the text of string literals (keeping every newline, so offsets keep their line),
 * leaving `${…}` of template literals as code. Good enough for source that Biome formats.
 */
export function blankCommentsAndStrings(source) {
  let out = '';
  let i = 0;
  const templateDepth = []; // brace depth at which each open `${` returns to its template literal
  let braces = 0;
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += c + blank(source.slice(i + 1, j)) + c;
      i = j + 1;
    } else if (c === '`' || (c === '}' && templateDepth.at(-1) === braces)) {
      if (c === '}') templateDepth.pop();
      let j = i + 1;
      while (j < source.length && source[j] !== '`' && !(source[j] === '$' && source[j + 1] === '{'))
        j += source[j] === '\\' ? 2 : 1;
      out += c + blank(source.slice(i + 1, j));
      if (source[j] === '$') {
        out += '${';
        templateDepth.push(braces);
        i = j + 2;
      } else {
        out += '`';
        i = j + 1;
      }
    } else {
      if (c === '{') braces++;
      else if (c === '}') braces--;
      out += c;
      i++;
    }
  }
  return out;
}

/** The value of a literal sum of products, `30 * 60_000 + 5` → 1800005. */
function numberOf(expression) {
  return expression
    .replace(/[\s_]/g, '')
    .split('+')
    .reduce((sum, term) => sum + term.split('*').reduce((product, factor) => product * Number(factor), 1), 0);
}

/** The inline numeric defaults of one source text: `{ line, kind, text }` for each. */
export function inlineDefaultsOf(source) {
  const code = blankCommentsAndStrings(source);
  const lines = source.split('\n');
  const found = [];
  for (const { kind, pattern } of INLINE_PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      if (TRIVIAL_NUMBERS.has(numberOf(match[1]))) continue;
      const line = code.slice(0, match.index + match[0].length).split('\n').length;
      if (INLINE_OK.test(lines[line - 1] ?? '')) continue;
      found.push({ line, kind, text: match[0].replace(/^[{(,]\s*/, '').trim() });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** Refuses inline numeric defaults in every package's `src/` (tests aside). Returns violations. */
export function checkInlineDefaults(packagesDir) {
  const violations = [];
  for (const file of sourceFiles(packagesDir)) {
    const where = relative(packagesDir, file).split(sep).join('/');
    for (const { line, kind, text } of inlineDefaultsOf(readFileSync(file, 'utf8'))) {
      violations.push(`${where}:${line}: inline default (${kind}) \`${text}\`: ${INLINE_REASON}`);
    }
  }
  return violations;
}

const EXPORTED_DEFAULT = /export\s+const\s+(DEFAULT_[A-Z0-9_]+)\s*(?::\s*[^=]+?)?=\s*([\s\S]*?);\s*$/gm;

/**
 * The value of a constant's initializer: a number for arithmetic over numeric literals and other
 * `DEFAULT_*` constants, a string for a string literal, otherwise its source text with whitespace,
 * `as const` and `Object.freeze` removed (so equal literals compare equal). `lookup` resolves a name.
 */
export function evaluateDefault(expression, lookup = () => undefined) {
  let text = expression
    .trim()
    .replace(/\s+as\s+const$/, '')
    .trim();
  const string = /^(['"])((?:\\.|(?!\1).)*)\1$/.exec(text);
  if (string) return string[2];
  const names = text.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g) ?? [];
  let numeric = /^[\d_\s.+\-*/()A-Za-z$]*$/.test(text);
  for (const name of new Set(names)) {
    const value = lookup(name);
    if (typeof value !== 'number') {
      numeric = false;
      break;
    }
    text = text.replace(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'), `(${value})`);
  }
  if (numeric && /^[\d_\s.+\-*/()e]*$/.test(text)) {
    const value = Function(`"use strict"; return (${text.replace(/(\d)_(?=\d)/g, '$1')});`)();
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return expression
    .replace(/\s+as\s+const\s*$/, '')
    .replace(/^Object\.freeze\(([\s\S]*)\)$/, '$1')
    .replace(/\s+/g, '')
    .replace(/,([}\]])/g, '$1');
}

/** Every `export const DEFAULT_* = …` of the packages: `{ name, pkg, where, expression, deprecated }`. */
function exportedDefaults(packagesDir) {
  const found = [];
  for (const entry of readdirSync(packagesDir)) {
    const srcDir = join(packagesDir, entry, 'src');
    if (!existsSync(srcDir)) continue;
    for (const file of walk(srcDir)) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(EXPORTED_DEFAULT)) {
        const before = source.slice(0, match.index);
        const doc = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*$/.exec(before);
        found.push({
          name: match[1],
          pkg: entry,
          where: `${relative(packagesDir, file).split(sep).join('/')}:${before.split('\n').length}`,
          expression: match[2],
          deprecated: doc !== null && /@deprecated\b/.test(doc[1]),
        });
      }
    }
  }
  return found;
}

const CONFLICT_REASON =
  'one name must mean one value on every package, or a user importing it from one transport configures another wrong; define it once (a shared limit in packages/protocol/src/transports/limit-defaults.ts) and re-export it, or give the different value a name that says why it differs (an old name kept for compatibility carries `@deprecated` and is exempt)';

/**
 * Refuses two packages exporting a `DEFAULT_*` constant of the same name with different values.
 * Re-exports (`export { X } from …`) are the same constant and never conflict; a constant whose JSDoc
 * carries `@deprecated` is a compatibility alias on its way out and is not compared. Returns violations.
 */
export function checkDefaultConstants(packagesDir) {
  const constants = exportedDefaults(packagesDir);
  const byName = new Map();
  for (const constant of constants)
    byName.set(constant.name, [...(byName.get(constant.name) ?? []), constant]);
  const values = new Map();
  const resolvedValue = (constant, seen = new Set()) => {
    if (values.has(constant)) return values.get(constant);
    seen.add(constant);
    const lookup = (name) => {
      const candidates = byName.get(name) ?? [];
      const same = candidates.filter((c) => c.pkg === constant.pkg);
      const pick = same.length === 1 ? same[0] : candidates.length === 1 ? candidates[0] : undefined;
      return pick === undefined || seen.has(pick) ? undefined : resolvedValue(pick, seen);
    };
    const value = evaluateDefault(constant.expression, lookup);
    values.set(constant, value);
    return value;
  };
  const violations = [];
  for (const [name, list] of byName) {
    const compared = list.filter((c) => !c.deprecated);
    const distinct = new Map();
    for (const constant of compared) {
      const key = JSON.stringify(resolvedValue(constant));
      distinct.set(key, [...(distinct.get(key) ?? []), constant]);
    }
    if (distinct.size < 2 || new Set(compared.map((c) => c.pkg)).size < 2) continue;
    const listing = [...distinct.entries()]
      .map(([value, at]) => `${value} in ${at.map((c) => c.where).join(', ')}`)
      .join('; ');
    violations.push(`${name} has ${distinct.size} values (${listing}): ${CONFLICT_REASON}`);
  }
  return violations;
}

// The options-and-limits tables of docs/transports.md, generated from the transports' option types
// and the DEFAULT_* constants (issue #36): a table can no longer say 4 MiB where the code says 8.
//
// Source of truth per option: its declaration in the option interface (type as written, JSDoc text)
// and its `@default` tag, either a literal (`@default true`) or a constant (`@default {@link
// DEFAULT_MAX_MESSAGE_BYTES}`), whose value is read from the constant's initializer. The blocks between
// `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` in the document are replaced; the rest is prose.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DOC_PATH = join(ROOT, 'docs', 'transports.md');

/** The servers, in column order: label, the file holding the options interface, its name. */
export const SERVERS = [
  {
    label: 'stdio',
    file: 'packages/transport-stdio/src/server-transport.ts',
    name: 'StdioServerTransportOptions',
  },
  {
    label: 'Streamable HTTP',
    file: 'packages/transport-streamable-http/src/server/options.ts',
    name: 'StreamableHttpHandlerOptions',
  },
  { label: 'legacy SSE', file: 'packages/transport-sse/src/server/sse-server.ts', name: 'SseHandlerOptions' },
  {
    label: 'WebSocket',
    file: 'packages/transport-ws/src/websocket-listener.ts',
    name: 'WebSocketListenOptions',
  },
  { label: 'gRPC', file: 'packages/transport-grpc/src/listen-grpc.ts', name: 'GrpcListenOptions' },
];

/** The clients, in column order. */
export const CLIENTS = [
  {
    label: 'stdio',
    file: 'packages/transport-stdio/src/client-transport.ts',
    name: 'StdioClientTransportOptions',
  },
  {
    label: 'Streamable HTTP',
    file: 'packages/transport-streamable-http/src/client/options.ts',
    name: 'StreamableHttpClientTransportOptions',
  },
  {
    label: 'legacy SSE',
    file: 'packages/transport-sse/src/client/sse-client-options.ts',
    name: 'SseClientTransportOptions',
  },
  {
    label: 'WebSocket',
    file: 'packages/transport-ws/src/client-transport.ts',
    name: 'WebSocketClientTransportOptions',
  },
  {
    label: 'gRPC',
    file: 'packages/transport-grpc/src/client-options.ts',
    name: 'GrpcClientTransportOptions',
  },
];

/** Option names that bound something: they make up the limits matrices. */
const LIMIT_NAME = /^(max[A-Z]|sessionRateLimit$|.*TimeoutMs$|keepAliveMs$)/;

function program() {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile).config;
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
  // Every source file of the transports and of @x/protocol: a constant an option's `@default` names may
  // live in a file the option interface does not import.
  const files = [
    'packages/protocol/src',
    ...new Set([...SERVERS, ...CLIENTS].map((entry) => entry.file.split('/src/')[0] + '/src')),
  ]
    .flatMap((folder) =>
      readdirSync(join(ROOT, folder), { recursive: true }).map((name) => join(ROOT, folder, String(name))),
    )
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'));
  return ts.createProgram(files, { ...options, noEmit: true, types: ['node'] });
}

/**
 * Every upper-case constant (`DEFAULT_*`, `*_DEFAULTS`) of the sources, by name. A `@deprecated` one (an
 * old name kept for one minor version, whose value may differ) never stands for the name: repo-check
 * holds every other same-named constant to one value.
 */
function defaultConstants(prog) {
  const constants = new Map();
  for (const source of prog.getSourceFiles()) {
    const path = relative(ROOT, source.fileName);
    if (!/^packages\/[^/]+\/src\//.test(path)) continue;
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement) || isDeprecated(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (
          ts.isIdentifier(declaration.name) &&
          /^[A-Z][A-Z0-9_]+$/.test(declaration.name.text) &&
          declaration.initializer
        ) {
          constants.set(declaration.name.text, { declaration, path });
        }
      }
    }
  }
  return constants;
}

const NOT_A_VALUE = Symbol('not a value');

/** The value of a constant's initializer, for the shapes defaults are written in; else NOT_A_VALUE. */
function evaluate(node, checker, depth = 0) {
  if (depth > 20) return NOT_A_VALUE;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isStringLiteralLike(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  ) {
    return evaluate(node.expression, checker, depth + 1);
  }
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const value = evaluate(node.operand, checker, depth + 1);
    return typeof value === 'number' ? -value : NOT_A_VALUE;
  }
  if (ts.isBinaryExpression(node)) {
    const left = evaluate(node.left, checker, depth + 1);
    const right = evaluate(node.right, checker, depth + 1);
    if (typeof left !== 'number' || typeof right !== 'number') return NOT_A_VALUE;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken:
        return left * right;
      case ts.SyntaxKind.PlusToken:
        return left + right;
      case ts.SyntaxKind.MinusToken:
        return left - right;
      case ts.SyntaxKind.SlashToken:
        return left / right;
      default:
        return NOT_A_VALUE;
    }
  }
  if (ts.isObjectLiteralExpression(node)) {
    const value = {};
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) return NOT_A_VALUE;
      const inner = evaluate(property.initializer, checker, depth + 1);
      if (inner === NOT_A_VALUE) return NOT_A_VALUE;
      value[property.name.text] = inner;
    }
    return value;
  }
  if (
    ts.isCallExpression(node) &&
    node.expression.getText() === 'Object.freeze' &&
    node.arguments.length === 1
  ) {
    return evaluate(node.arguments[0], checker, depth + 1);
  }
  if (ts.isIdentifier(node)) {
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const declaration = symbol?.valueDeclaration;
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) {
      return evaluate(declaration.initializer, checker, depth + 1);
    }
  }
  return NOT_A_VALUE;
}

const thousands = (n) => (Math.abs(n) >= 10_000 ? n.toLocaleString('en-US').replaceAll(',', ' ') : String(n));

function formatBytes(n) {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ]) {
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${thousands(n)} bytes`;
}

function formatMs(n) {
  if (n === 0) return '0 (off)';
  if (n === Number.POSITIVE_INFINITY) return 'none';
  if (n % 3_600_000 === 0) return `${n / 3_600_000} h`;
  if (n % 60_000 === 0) return `${n / 60_000} min`;
  if (n % 1000 === 0) return `${n / 1000} s`;
  return `${n} ms`;
}

/** A constant's value as a reader wants it: the unit its name carries. */
export function formatConstant(name, value) {
  if (typeof value === 'number') {
    if (/_BYTES$/.test(name)) return formatBytes(value);
    if (/_MS$/.test(name)) return formatMs(value);
    if (/_(SEC|SECONDS)$/.test(name)) return formatMs(value * 1000);
    return thousands(value);
  }
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatConstant('', item)).join(', ')}]`;
  if (value && typeof value === 'object') {
    const fields = Object.entries(value).map(([key, inner]) => {
      const unit = /Ms$/.test(key) ? '_MS' : /Bytes$/.test(key) ? '_BYTES' : '';
      return `${key} ${formatConstant(unit, inner)}`;
    });
    return fields.join(', ');
  }
  return String(value);
}

/** Text of a JSDoc comment part (string or node array with links), links as code spans. */
function commentText(comment) {
  if (comment === undefined) return '';
  if (typeof comment === 'string') return comment;
  return comment
    .map((part) => {
      if (ts.isJSDocLink(part) || ts.isJSDocLinkCode(part) || ts.isJSDocLinkPlain(part)) {
        const target = part.name ? part.name.getText() : '';
        const label = part.text?.trim();
        return `\`${label || target}\``;
      }
      return part.text;
    })
    .join('');
}

/** The `@default` of a declaration: `{ text, constant? }`, or undefined when it has none. */
function defaultTag(declaration) {
  for (const tag of ts.getJSDocTags(declaration)) {
    if (tag.tagName.text !== 'default' && tag.tagName.text !== 'defaultValue') continue;
    const parts = typeof tag.comment === 'string' || tag.comment === undefined ? [] : [...tag.comment];
    const link = parts.find((part) => ts.isJSDocLink(part) || ts.isJSDocLinkCode(part));
    const rest = commentText(tag.comment).trim();
    if (link?.name) {
      const constant = link.name.getText();
      const after = parts
        .slice(parts.indexOf(link) + 1)
        .map((part) => part.text ?? '')
        .join('')
        .trim();
      return { constant, note: after };
    }
    return { text: rest };
  }
  return undefined;
}

function isDeprecated(declaration) {
  return ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'deprecated');
}

/**
 * The description of a declaration: its JSDoc text on one line. With a `@default` tag, the prose's own
 * "Default …" sentence goes: the default column says it, from the constant.
 */
function description(declaration, hasDefaultTag) {
  const docs = ts.getJSDocCommentsAndTags(declaration).filter((node) => ts.isJSDoc(node));
  const text = docs
    .map((doc) => commentText(doc.comment))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!hasDefaultTag) return text;
  return text
    .split(/(?<=\.)\s+(?=[A-Z`(])/)
    .filter((sentence) => !/^Defaults?\b/.test(sentence))
    .join(' ');
}

const cell = (text) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The options of one interface, inherited ones included, in declaration order. */
function optionsOf(prog, entry, constants) {
  const checker = prog.getTypeChecker();
  const source = prog.getSourceFile(join(ROOT, entry.file));
  if (!source) throw new Error(`docs-gen: ${entry.file} is not in the program`);
  const declared = source.statements.find(
    (statement) =>
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      statement.name.text === entry.name,
  );
  if (!declared) throw new Error(`docs-gen: ${entry.name} is not declared in ${entry.file}`);
  const type = checker.getTypeAtLocation(declared.name);
  const options = [];
  for (const property of checker.getPropertiesOfType(type)) {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    if (!declaration) continue;
    const required = !(property.flags & ts.SymbolFlags.Optional);
    const typeNode = declaration.type;
    let typeText = typeNode
      ? typeNode.getText().replace(/\s+/g, ' ')
      : checker.typeToString(checker.getTypeOfSymbol(property));
    // A union written over several lines starts with `|`; `| undefined` is optionality, said by the default.
    typeText = typeText
      .replace(/^\|\s*/, '')
      .replace(/\s*\|\s*undefined\b/g, '')
      .replace(/^\((.*)\)$/, '$1');
    const tag = defaultTag(declaration);
    let defaultText;
    let defaultValue;
    if (required) defaultText = 'required';
    else if (!tag) defaultText = 'none';
    else if (tag.constant) {
      const found = constants.get(tag.constant);
      if (!found)
        throw new Error(
          `docs-gen: ${entry.name}.${property.name} names ${tag.constant}, which no package defines`,
        );
      const value = evaluate(found.declaration.initializer, checker);
      defaultValue = value === NOT_A_VALUE ? undefined : value;
      const shown = value === NOT_A_VALUE ? '' : `${formatConstant(tag.constant, value)} `;
      defaultText = `${shown}(\`${tag.constant}\`)${tag.note ? ` ${tag.note}` : ''}`;
    } else {
      defaultText = tag.text || 'none';
      defaultValue = tag.text;
    }
    options.push({
      name: property.name,
      type: typeText,
      required,
      deprecated: isDeprecated(declaration),
      default: defaultText,
      defaultValue,
      description: description(declaration, tag !== undefined),
    });
  }
  return options;
}

function optionTable(options) {
  const lines = ['| option | type | default | what it does |', '| --- | --- | --- | --- |'];
  for (const option of options) {
    const name = `\`${option.name}\`${option.deprecated ? ' (deprecated)' : ''}`;
    lines.push(
      `| ${name} | \`${cell(option.type)}\` | ${cell(option.default)} | ${cell(option.description)} |`,
    );
  }
  return lines.join('\n');
}

/** Limit options × transports: each cell the default, `—` where the transport has no such option. */
function limitMatrix(entries, optionsByLabel) {
  const names = [];
  for (const entry of entries) {
    for (const option of optionsByLabel.get(entry.label)) {
      if (LIMIT_NAME.test(option.name) && !option.deprecated && !names.includes(option.name))
        names.push(option.name);
    }
  }
  const header = `| option | ${entries.map((entry) => entry.label).join(' | ')} |`;
  const lines = [header, `| --- |${entries.map(() => ' --- |').join('')}`];
  for (const name of names) {
    const cells = entries.map((entry) => {
      const option = optionsByLabel.get(entry.label).find((candidate) => candidate.name === name);
      return option ? cell(option.default) : '—';
    });
    lines.push(`| \`${name}\` | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The options of every server and client: `{ server, client }`, each a Map of label → options. */
export function collectOptions() {
  const prog = program();
  // The checker binds every file, which sets the parent links the JSDoc lookups below need.
  prog.getTypeChecker();
  const constants = defaultConstants(prog);
  const collect = (entries) =>
    new Map(entries.map((entry) => [entry.label, optionsOf(prog, entry, constants)]));
  return { server: collect(SERVERS), client: collect(CLIENTS) };
}

/** Whether an option name is a limit (it appears in the limits matrices). */
export const isLimit = (name) => LIMIT_NAME.test(name);

/** Every generated block, by name. */
export function generateBlocks(collected = collectOptions()) {
  const blocks = new Map();
  for (const [side, entries] of [
    ['server', SERVERS],
    ['client', CLIENTS],
  ]) {
    const optionsByLabel = collected[side];
    blocks.set(`${side}-limits`, limitMatrix(entries, optionsByLabel));
    for (const entry of entries) {
      const slug = entry.label.toLowerCase().replace(/[^a-z]+/g, '-');
      blocks.set(
        `${side}-${slug}`,
        `All options of \`${entry.name}\` (\`${entry.file}\`):\n\n${optionTable(optionsByLabel.get(entry.label))}`,
      );
    }
  }
  return blocks;
}

const BLOCK = /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g;

/** The document with every generated block replaced; throws on a block the generator does not know. */
export function render(document, blocks = generateBlocks()) {
  const seen = new Set();
  const out = document.replace(BLOCK, (_match, name) => {
    const body = blocks.get(name);
    if (body === undefined)
      throw new Error(`docs-gen: ${DOC_PATH} has a block "${name}" the generator does not make`);
    seen.add(name);
    return `<!-- generated:${name} -->\n${body}\n<!-- /generated:${name} -->`;
  });
  const missing = [...blocks.keys()].filter((name) => !seen.has(name));
  if (missing.length > 0) {
    throw new Error(
      `docs-gen: ${DOC_PATH} lacks the blocks ${missing.join(', ')} (add <!-- generated:NAME --> markers)`,
    );
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const current = readFileSync(DOC_PATH, 'utf8');
  const next = render(current);
  if (process.argv.includes('--check')) {
    if (next !== current) {
      console.error('docs/transports.md is stale: run `pnpm docs:gen` and commit the result');
      process.exit(1);
    }
  } else if (next !== current) {
    writeFileSync(DOC_PATH, next);
    console.log('docs/transports.md regenerated');
  } else {
    console.log('docs/transports.md is current');
  }
}

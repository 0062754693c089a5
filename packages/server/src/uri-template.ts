/**
 * RFC 6570 URI templates (levels 1–4): expansion, and the reverse — matching a concrete URI against a
 * template to recover its variables, which is how `resources/read` finds the template a URI belongs to.
 */

/**
 * A value `UriTemplate#expand` accepts for one variable; `undefined` leaves the variable out.
 *
 * @example
 * ```ts
 * const values: Record<string, UriTemplateValue> = { owner: 'x', tags: ['a', 'b'], page: 2 };
 * new UriTemplate('repos://{owner}{?tags*,page}').expand(values); // 'repos://x?tags=a&tags=b&page=2'
 * ```
 */
export type UriTemplateValue = string | number | boolean | readonly string[] | undefined;
/**
 * The variables `UriTemplate#match` recovers from a URI (exploded or repeated ones as arrays).
 *
 * @example
 * ```ts
 * const vars: UriTemplateVariables | undefined = new UriTemplate('users://{id}/posts/{post}').match(
 *   'users://42/posts/7',
 * );
 * // { id: '42', post: '7' }
 * ```
 */
export type UriTemplateVariables = Record<string, string | string[]>;

interface VarSpec {
  name: string;
  explode: boolean;
  prefix: number | undefined;
}

interface Expression {
  operator: Operator;
  vars: VarSpec[];
}

type Part = string | Expression;

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

// RFC 6570 §3.2.1, appendix A table.
const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

const MAX_TEMPLATE_LENGTH = 4096;
const MAX_URI_LENGTH = 16_384;
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/**
 * A template that RFC 6570 does not allow (or that exceeds the length limits).
 *
 * @example
 * ```ts
 * try {
 *   new UriTemplate('users://{id');
 * } catch (error) {
 *   if (error instanceof UriTemplateError) console.error('bad template:', error.message);
 * }
 * ```
 */
export class UriTemplateError extends Error {
  override readonly name = 'UriTemplateError';
}

function parse(template: string): Part[] {
  if (template.length > MAX_TEMPLATE_LENGTH) throw new UriTemplateError('URI template is too long');
  const parts: Part[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    if (open === -1) {
      parts.push(template.slice(index));
      break;
    }
    if (open > index) parts.push(template.slice(index, open));
    const close = template.indexOf('}', open);
    if (close === -1) throw new UriTemplateError(`Unclosed expression in URI template: ${template}`);
    parts.push(parseExpression(template.slice(open + 1, close)));
    index = close + 1;
  }
  return parts;
}

function parseExpression(body: string): Expression {
  const head = body.charAt(0);
  const operator = OPERATORS[head] !== undefined && head !== '' ? OPERATORS[head] : OPERATORS['']!;
  const list = operator === OPERATORS[''] ? body : body.slice(1);
  const vars = list.split(',').map((spec): VarSpec => {
    let name = spec;
    let explode = false;
    let prefix: number | undefined;
    if (name.endsWith('*')) {
      explode = true;
      name = name.slice(0, -1);
    }
    const colon = name.indexOf(':');
    if (colon !== -1) {
      prefix = Number(name.slice(colon + 1));
      name = name.slice(0, colon);
      if (!Number.isInteger(prefix) || prefix <= 0 || prefix >= 10_000) {
        throw new UriTemplateError(`Invalid prefix modifier in {${body}}`);
      }
    }
    if (!VARNAME.test(name)) throw new UriTemplateError(`Invalid variable name in {${body}}`);
    return { name, explode, prefix };
  });
  return { operator, vars };
}

function encode(value: string, allowReserved: boolean): string {
  if (!allowReserved)
    return encodeURIComponent(value).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  // Reserved expansion keeps reserved characters and existing pct-encodings (RFC 6570 §3.2.3).
  return value.replace(/%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/g, (match) =>
    match.length === 3 && match.startsWith('%') ? match : encodeURIComponent(match),
  );
}

function expandExpression({ operator, vars }: Expression, values: Record<string, UriTemplateValue>): string {
  const pieces: string[] = [];
  for (const spec of vars) {
    const raw = values[spec.name];
    if (raw === undefined) continue;
    if (Array.isArray(raw)) {
      const list = raw as readonly string[];
      if (list.length === 0) continue;
      const encoded = list.map((item) => encode(item, operator.allowReserved));
      if (spec.explode) {
        pieces.push(
          operator.named
            ? encoded.map((item) => `${spec.name}=${item}`).join(operator.sep)
            : encoded.join(operator.sep),
        );
      } else {
        pieces.push((operator.named ? `${spec.name}=` : '') + encoded.join(','));
      }
      continue;
    }
    let text = String(raw);
    if (spec.prefix !== undefined) text = Array.from(text).slice(0, spec.prefix).join('');
    const encoded = encode(text, operator.allowReserved);
    if (operator.named)
      pieces.push(encoded === '' ? spec.name + operator.ifEmpty : `${spec.name}=${encoded}`);
    else pieces.push(encoded);
  }
  return pieces.length === 0 ? '' : operator.first + pieces.join(operator.sep);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A compiled RFC 6570 template.
 *
 * @example
 * ```ts
 * const template = new UriTemplate('file:///{+path}{?rev}');
 * template.expand({ path: 'src/a.ts', rev: '3' }); // 'file:///src/a.ts?rev=3'
 * template.match('file:///src/a.ts?rev=3');       // { path: 'src/a.ts', rev: '3' }
 * ```
 */
export class UriTemplate {
  readonly template: string;
  readonly #parts: Part[];
  /**
   * For each expression, the literal that bounds it: the next one, even past expressions between
   * (they may be empty). Found once here rather than on every match.
   */
  readonly #nextLiterals: Array<string | undefined>;

  constructor(template: string) {
    this.template = template;
    this.#parts = parse(template);
    this.#nextLiterals = this.#parts.map((_, index) =>
      this.#parts.slice(index + 1).find((p): p is string => typeof p === 'string'),
    );
  }

  /** Names of every variable, in template order. */
  get variableNames(): string[] {
    return this.#parts.flatMap((part) => (typeof part === 'string' ? [] : part.vars.map((v) => v.name)));
  }

  expand(values: Record<string, UriTemplateValue>): string {
    return this.#parts
      .map((part) => (typeof part === 'string' ? part : expandExpression(part, values)))
      .join('');
  }

  /**
   * The variables of `uri` if it is an expansion of this template, else undefined.
   *
   * A single left-to-right scan with no backtracking across expressions, so hostile URIs cost linear
   * time. Where a template is ambiguous (two reserved expressions side by side) the earlier one wins.
   */
  match(uri: string): UriTemplateVariables | undefined {
    if (uri.length > MAX_URI_LENGTH) return undefined;
    const result: UriTemplateVariables = {};
    let pos = 0;
    for (let index = 0; index < this.#parts.length; index++) {
      const part = this.#parts[index]!;
      if (typeof part === 'string') {
        if (!uri.startsWith(part, pos)) return undefined;
        pos += part.length;
        continue;
      }
      pos = matchExpression(part, uri, pos, this.#nextLiterals[index], result);
      if (pos === -1) return undefined;
    }
    return pos === uri.length ? result : undefined;
  }

  toString(): string {
    return this.template;
  }
}

/** Characters an expression's value may span, per operator (RFC 6570 §3.2.2–3.2.9). */
function stopsAt(operator: Operator, explode: boolean, several: boolean): string {
  if (operator.first === '?' || operator.first === '&') return '#';
  if (operator.allowReserved) return '?#';
  if (operator.first === '/') return explode || several ? '?#' : '/?#';
  const stops = explode ? '/?#&' : '/?#&,;';
  // A list of variables spans its own separators.
  return several ? stops.replace(operator.sep, '') : stops;
}

function runEnd(uri: string, from: number, stops: string): number {
  let end = from;
  while (end < uri.length && !stops.includes(uri.charAt(end))) end++;
  return end;
}

function matchExpression(
  { operator, vars }: Expression,
  uri: string,
  start: number,
  nextLiteral: string | undefined,
  result: UriTemplateVariables,
): number {
  let pos = start;
  if (operator.first !== '') {
    if (uri.charAt(pos) !== operator.first) return pos; // every variable undefined: expands to nothing
    pos += 1;
  }
  let end = runEnd(
    uri,
    pos,
    stopsAt(
      operator,
      vars.some((v) => v.explode),
      vars.length > 1,
    ),
  );
  if (nextLiteral !== undefined && !uri.startsWith(nextLiteral, end)) {
    // Give back characters until the literal that follows can match (within this one expression only).
    const found = uri.lastIndexOf(nextLiteral, end);
    if (found < pos) return -1;
    end = found;
  }
  const text = uri.slice(pos, end);
  if (operator.named) assignNamed(operator, vars, text, result);
  else assignPositional(operator, vars, text, result);
  return end;
}

function assignPositional(
  operator: Operator,
  vars: VarSpec[],
  text: string,
  result: UriTemplateVariables,
): void {
  if (vars.length === 1) {
    const spec = vars[0]!;
    if (spec.explode)
      result[spec.name] = text
        .split(operator.sep)
        .filter((s) => s !== '')
        .map(safeDecode);
    else if (operator.allowReserved) result[spec.name] = safeDecode(text);
    else result[spec.name] = text.includes(',') ? text.split(',').map(safeDecode) : safeDecode(text);
    return;
  }
  const pieces = text.split(operator.sep);
  vars.forEach((spec, i) => {
    const piece = pieces[i];
    if (piece !== undefined) result[spec.name] = safeDecode(piece);
  });
}

function assignNamed(operator: Operator, vars: VarSpec[], text: string, result: UriTemplateVariables): void {
  const params = new Map<string, string[]>();
  for (const pair of text.split(operator.sep)) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = safeDecode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : safeDecode(pair.slice(eq + 1).replace(/\+/g, '%20'));
    // Appended in place: copying the list per repetition made `?a=&a=&…` quadratic (16 KB: 28 ms).
    const seen = params.get(key);
    if (seen === undefined) params.set(key, [value]);
    else seen.push(value);
  }
  for (const spec of vars) {
    const values = params.get(spec.name);
    if (values === undefined) continue;
    result[spec.name] = spec.explode || values.length > 1 ? values : (values[0] ?? '');
  }
}

/**
 * Whether `text` contains at least one template expression (a fixed URI has none).
 *
 * @example
 * ```ts
 * isUriTemplate('users://{id}/profile'); // true
 * isUriTemplate('file:///README.md'); // false
 * ```
 */
export function isUriTemplate(text: string): boolean {
  return /\{[^}]+\}/.test(text);
}

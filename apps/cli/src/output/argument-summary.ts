import { propertySchema, schemaTypes } from '../args/schema-types.js';

type Schema = Readonly<Record<string, unknown>>;

function typeLabel(property: Schema | undefined, root: Schema): string {
  if (property === undefined) return '';
  const types = [...schemaTypes(property, root)].filter((t) => t !== 'null');
  if (types.length === 0) return '';
  if (types.length === 1 && types[0] === 'array') {
    const items = property['items'];
    const inner = typeof items === 'object' && items !== null ? [...schemaTypes(items, root)] : [];
    return inner.length === 1 ? `${inner[0]}[]` : 'array';
  }
  return types.join('|');
}

/**
 * A tool's arguments in one line, required ones starred: `message*: string, count: integer`.
 *
 * @example
 * ```ts
 * summarizeArguments({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }); // 'a*: number'
 * ```
 */
export function summarizeArguments(inputSchema: unknown): string {
  if (typeof inputSchema !== 'object' || inputSchema === null) return '';
  const root = inputSchema as Schema;
  const properties = root['properties'];
  if (typeof properties !== 'object' || properties === null) return '';
  const required = new Set(Array.isArray(root['required']) ? root['required'] : []);
  return Object.keys(properties)
    .map((name) => {
      const type = typeLabel(propertySchema(root, name), root);
      return `${name}${required.has(name) ? '*' : ''}${type === '' ? '' : `: ${type}`}`;
    })
    .join(', ');
}

/** A prompt's arguments in one line, required ones starred: `name*, style`. */
export function summarizePromptArguments(
  args: readonly { name: string; required?: boolean | undefined }[] | undefined,
): string {
  return (args ?? []).map((a) => `${a.name}${a.required === true ? '*' : ''}`).join(', ');
}

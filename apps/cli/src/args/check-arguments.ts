import { itemsSchema, propertySchema } from './schema-types.js';
import { UsageError } from './usage-error.js';

type Schema = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The allowed values of a schema with `enum` (or a single `const`), else undefined. */
function choicesOf(schema: Schema): readonly unknown[] | undefined {
  if (Array.isArray(schema['enum'])) return schema['enum'];
  return 'const' in schema ? [schema['const']] : undefined;
}

const show = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** JSON equality for enum members (`1` and `1.0` are one number; objects compare by content). */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Checks a tool's arguments against what its input schema makes plain before anything is sent (the
 * README promises a usage error, exit 2): every `required` property is given, and a property (or an
 * array property's items) with an `enum`/`const` holds one of its values. Everything else is the
 * server's to judge.
 *
 * @example
 * ```ts
 * checkArguments({ kind: 'robot' }, { properties: { kind: { enum: ['person', 'company'] } } }, 'add');
 * // UsageError: argument kind must be one of: person, company (got robot)
 * ```
 */
export function checkArguments(args: Readonly<Record<string, unknown>>, schema: unknown, tool: string): void {
  if (!isRecord(schema)) return;
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((name): name is string => typeof name === 'string')
    : [];
  const missing = required.filter((name) => !Object.hasOwn(args, name));
  if (missing.length > 0) {
    const list = missing.join(', ');
    throw new UsageError(
      `missing required argument${missing.length === 1 ? '' : 's'} ${list} of tool ${tool} (x-mcp tools lists them; * = required)`,
      { command: 'call' },
    );
  }
  for (const [name, value] of Object.entries(args)) {
    const property = propertySchema(schema, name);
    if (property === undefined) continue;
    const choices = choicesOf(property);
    if (choices !== undefined && !choices.some((choice) => same(choice, value))) {
      throw new UsageError(
        `argument ${name} must be one of: ${choices.map(show).join(', ')} (got ${show(value)})`,
        { command: 'call' },
      );
    }
    const items = Array.isArray(value) ? itemsSchema(property, schema) : undefined;
    const itemChoices = items === undefined ? undefined : choicesOf(items);
    if (itemChoices === undefined || !Array.isArray(value)) continue;
    const wrong = value.find((item) => !itemChoices.some((choice) => same(choice, item)));
    if (wrong !== undefined) {
      throw new UsageError(
        `argument ${name} takes items from: ${itemChoices.map(show).join(', ')} (got ${show(wrong)})`,
        { command: 'call' },
      );
    }
  }
}

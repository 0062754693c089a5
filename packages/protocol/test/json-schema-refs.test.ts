import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../src/validation/json-schema/index.js';
import {
  compileJsonSchema,
  JsonSchemaCompileError,
  toStandardSchema,
} from '../src/validation/json-schema/index.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function isValid(schema: JsonSchema, value: unknown): boolean {
  return compileJsonSchema(schema).validate(value).valid;
}

describe('json-schema: $ref resolution', () => {
  it('resolves #/$defs, #/definitions and arbitrary JSON Pointers into the root', () => {
    expect(isValid({ $defs: { s: { type: 'string' } }, $ref: '#/$defs/s' }, 1)).toBe(false);
    expect(isValid({ definitions: { s: { type: 'string' } }, $ref: '#/definitions/s' }, 'a')).toBe(true);
    const pointer = { properties: { a: { type: 'integer' }, b: { $ref: '#/properties/a' } } };
    expect(isValid(pointer, { b: 1.5 })).toBe(false);
    const list = { prefixItems: [{ type: 'string' }], properties: { x: { $ref: '#/prefixItems/0' } } };
    expect(isValid(list, { x: 1 })).toBe(false);
  });

  it('decodes ~0, ~1 and percent-encoding in pointer refs', () => {
    const schema = {
      $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, 'e f': { type: 'null' } },
      properties: {
        slash: { $ref: '#/$defs/a~1b' },
        tilde: { $ref: '#/$defs/c~0d' },
        space: { $ref: '#/$defs/e%20f' },
      },
    };
    expect(isValid(schema, { slash: 'x', tilde: 1, space: null })).toBe(true);
    expect(isValid(schema, { slash: 1 })).toBe(false);
    expect(isValid(schema, { tilde: 'x' })).toBe(false);
    expect(isValid(schema, { space: 0 })).toBe(false);
  });

  it('resolves $anchor, also inside embedded resources', () => {
    const schema = {
      $defs: {
        id: { $anchor: 'ident', type: 'string', pattern: '^[a-z]+$' },
        other: { $id: 'https://example.com/other.json', $defs: { n: { $anchor: 'num', type: 'number' } } },
      },
      properties: { a: { $ref: '#ident' }, b: { $ref: 'https://example.com/other.json#num' } },
    };
    expect(isValid(schema, { a: 'abc', b: 1 })).toBe(true);
    expect(isValid(schema, { a: 'ABC' })).toBe(false);
    expect(isValid(schema, { b: 'x' })).toBe(false);
  });

  it('resolves relative refs against the nearest $id', () => {
    const schema = {
      $id: 'https://example.com/schemas/root.json',
      properties: {
        address: {
          $id: 'address.json',
          type: 'object',
          properties: { zip: { $ref: '#/$defs/zip' } },
          $defs: { zip: { type: 'string', pattern: '^\\d{5}$' } },
        },
        billing: { $ref: 'address.json' },
        shipping: { $ref: '/schemas/address.json#/$defs/zip' },
        item: { $ref: 'item.json' },
      },
      $defs: { item: { $id: 'item.json', type: 'integer' } },
    };
    const { validate } = compileJsonSchema(schema);
    expect(
      validate({ address: { zip: '12345' }, billing: { zip: '54321' }, shipping: '00000', item: 3 }).valid,
    ).toBe(true);
    expect(validate({ billing: { zip: 'nope' } }).valid).toBe(false);
    expect(validate({ shipping: 5 }).valid).toBe(false);
    expect(validate({ item: 'x' }).valid).toBe(false);
  });

  it('supports urn: ids', () => {
    const schema = {
      $id: 'urn:example:root',
      $defs: { a: { type: 'boolean' } },
      $ref: 'urn:example:root#/$defs/a',
    };
    expect(isValid(schema, true)).toBe(true);
    expect(isValid(schema, 1)).toBe(false);
  });

  it('applies $ref alongside sibling keywords in 2020-12', () => {
    const schema = { $defs: { s: { type: 'string' } }, $ref: '#/$defs/s', maxLength: 2 };
    expect(isValid(schema, 'ab')).toBe(true);
    expect(isValid(schema, 'abc')).toBe(false);
    expect(isValid(schema, 1)).toBe(false);
  });

  it('ignores $ref siblings in draft-07 and honours #name ids as anchors', () => {
    const schema = {
      $schema: DRAFT_07,
      definitions: { s: { $id: '#str', type: 'string' } },
      properties: { a: { $ref: '#str', maxLength: 2 }, b: { $ref: '#/definitions/s' } },
    };
    expect(isValid(schema, { a: 'abcdef' })).toBe(true);
    expect(isValid(schema, { a: 1 })).toBe(false);
    expect(isValid(schema, { b: 1 })).toBe(false);
  });

  it('supports recursive schemas: a tree', () => {
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: {
            value: { type: 'number' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['value'],
          additionalProperties: false,
        },
      },
      $ref: '#/$defs/node',
    };
    const { validate } = compileJsonSchema(tree);
    const good = {
      value: 1,
      children: [
        { value: 2, children: [{ value: 3 }] },
        { value: 4, children: [] },
      ],
    };
    expect(validate(good)).toEqual({ valid: true });
    expect(validate({ value: 1, children: [{ value: 2, children: [{ value: 'x', extra: 1 }] }] })).toEqual({
      valid: false,
      errors: [
        { path: '/children/0/children/0/value', keyword: 'type', message: 'must be number' },
        {
          path: '/children/0/children/0/extra',
          keyword: 'additionalProperties',
          message: "must NOT have additional property 'extra'",
        },
      ],
    });
  });

  it('supports recursion through the root and mutual recursion', () => {
    const root = { type: 'array', items: { anyOf: [{ type: 'number' }, { $ref: '#' }] } };
    expect(isValid(root, [1, [2, [3, []]]])).toBe(true);
    expect(isValid(root, [1, [2, ['x']]])).toBe(false);
    const mutual = {
      $defs: {
        even: { anyOf: [{ const: null }, { type: 'object', properties: { next: { $ref: '#/$defs/odd' } } }] },
        odd: { type: 'object', required: ['next'], properties: { next: { $ref: '#/$defs/even' } } },
      },
      $ref: '#/$defs/even',
    };
    expect(isValid(mutual, { next: { next: null } })).toBe(true);
    expect(isValid(mutual, { next: null })).toBe(false);
  });

  it('resolves $dynamicRef statically in single-resource documents', () => {
    const schema = {
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { kids: { type: 'array', items: { $dynamicRef: '#node' } }, v: { type: 'integer' } },
    };
    expect(isValid(schema, { kids: [{ v: 1, kids: [] }] })).toBe(true);
    expect(isValid(schema, { kids: [{ v: 1.5 }] })).toBe(false);
    expect(() =>
      compileJsonSchema({ $defs: { a: { $id: 'a.json', $dynamicAnchor: 'x' } }, $dynamicRef: '#x' }),
    ).toThrow(/\$dynamicRef/);
  });

  it.each([
    ['a remote document', 'https://example.com/remote.json'],
    ['a missing $defs entry', '#/$defs/missing'],
    ['an unknown anchor', '#nope'],
    ['a relative document', 'other.json'],
  ])('fails at compile time, without fetching, on %s', (_, ref) => {
    try {
      compileJsonSchema({ properties: { a: { $ref: ref } } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonSchemaCompileError);
      expect((error as JsonSchemaCompileError).schemaPath).toBe('#/properties/a/$ref');
      expect((error as Error).message).toContain(ref);
    }
  });

  it('compiles unreferenced definitions too, so their errors surface', () => {
    expect(() => compileJsonSchema({ $defs: { unused: { pattern: '[' } } })).toThrow(
      /#\/\$defs\/unused\/pattern/,
    );
    expect(() => compileJsonSchema({ $schema: DRAFT_07, definitions: { unused: { type: 'nope' } } })).toThrow(
      JsonSchemaCompileError,
    );
  });

  it('resolves refs to boolean subschemas', () => {
    expect(isValid({ $defs: { no: false }, properties: { a: { $ref: '#/$defs/no' } } }, { a: 1 })).toBe(
      false,
    );
    expect(isValid({ $defs: { yes: true }, $ref: '#/$defs/yes' }, 'x')).toBe(true);
  });

  it('rejects $id with a fragment and duplicate anchors in 2020-12', () => {
    expect(() => compileJsonSchema({ $id: 'https://x.test/a#frag' })).toThrow(/fragment/);
    expect(() => compileJsonSchema({ $defs: { a: { $anchor: 'x' }, b: { $anchor: 'x' } } })).toThrow(
      /duplicate/,
    );
  });
});

describe('json-schema: Standard Schema adapter', () => {
  it('returns the value on success and issues with typed paths on failure', async () => {
    const schema = toStandardSchema<{ tags: string[] }>(
      compileJsonSchema({ properties: { tags: { items: { type: 'string' } }, '0': { type: 'string' } } }),
    );
    expect(schema['~standard'].version).toBe(1);
    expect(schema['~standard'].vendor).toBe('x-mcp');
    const value = { tags: ['a'] };
    expect(await schema['~standard'].validate(value)).toEqual({ value });
    expect(await schema['~standard'].validate({ tags: ['a', 2], '0': 1 })).toEqual({
      issues: [
        { message: 'must be string', path: ['0'] },
        { message: 'must be string', path: ['tags', 1] },
      ],
    });
  });
});

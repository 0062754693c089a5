// biome-ignore-all lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
import { describe, expect, it } from 'vitest';
import type { CompileJsonSchemaOptions, JsonSchema } from '../src/validation/json-schema/index.js';
import { compileJsonSchema, JsonSchemaCompileError } from '../src/validation/json-schema/index.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function isValid(schema: JsonSchema | boolean, value: unknown, options?: CompileJsonSchemaOptions): boolean {
  return compileJsonSchema(schema, options).validate(value).valid;
}

function errorsOf(schema: JsonSchema | boolean, value: unknown, options?: CompileJsonSchemaOptions) {
  const result = compileJsonSchema(schema, options).validate(value);
  return result.valid ? [] : result.errors;
}

describe('json-schema: type, enum, const', () => {
  it('checks single and multiple types, with integer accepting 1.0', () => {
    expect(isValid({ type: 'integer' }, 1.0)).toBe(true);
    expect(isValid({ type: 'integer' }, 1.5)).toBe(false);
    expect(isValid({ type: 'number' }, 1.5)).toBe(true);
    expect(isValid({ type: 'number' }, '1')).toBe(false);
    expect(isValid({ type: ['string', 'null'] }, null)).toBe(true);
    expect(isValid({ type: ['string', 'null'] }, 3)).toBe(false);
    expect(isValid({ type: 'object' }, [])).toBe(false);
    expect(isValid({ type: 'array' }, [])).toBe(true);
    expect(isValid({ type: 'null' }, undefined)).toBe(false);
  });

  it('compares enum and const with JSON equality', () => {
    expect(isValid({ enum: [1, 'a', null] }, 'a')).toBe(true);
    expect(isValid({ enum: [1, 'a', null] }, '1')).toBe(false);
    expect(isValid({ enum: [{ a: [1, 2] }] }, { a: [1, 2] })).toBe(true);
    expect(isValid({ enum: [{ a: [1, 2] }] }, { a: [2, 1] })).toBe(false);
    expect(isValid({ const: { x: 1, y: [true] } }, { y: [true], x: 1.0 })).toBe(true);
    expect(isValid({ const: 0 }, -0)).toBe(true);
    expect(isValid({ const: false }, 0)).toBe(false);
    expect(isValid({ const: [] }, {})).toBe(false);
  });
});

describe('json-schema: numbers', () => {
  it('applies inclusive and exclusive bounds', () => {
    expect(isValid({ minimum: 2 }, 2)).toBe(true);
    expect(isValid({ exclusiveMinimum: 2 }, 2)).toBe(false);
    expect(isValid({ maximum: 2 }, 2.0001)).toBe(false);
    expect(isValid({ exclusiveMaximum: 2 }, 1.999)).toBe(true);
    expect(isValid({ minimum: 2 }, 'not a number')).toBe(true);
  });

  it('judges multipleOf on decimal values, not binary approximations', () => {
    expect(isValid({ multipleOf: 0.1 }, 0.3)).toBe(true);
    expect(isValid({ multipleOf: 0.01 }, 19.99)).toBe(true);
    expect(isValid({ multipleOf: 0.01 }, 19.995)).toBe(false);
    expect(isValid({ multipleOf: 3 }, 9)).toBe(true);
    expect(isValid({ multipleOf: 3 }, 10)).toBe(false);
    expect(isValid({ multipleOf: 1e-7 }, 3e-7)).toBe(true);
    expect(isValid({ type: 'integer', multipleOf: 0.5 }, 1e308)).toBe(true);
  });

  it('rejects the draft-04 boolean exclusiveMinimum and non-positive multipleOf', () => {
    expect(() => compileJsonSchema({ exclusiveMinimum: true })).toThrow(JsonSchemaCompileError);
    expect(() => compileJsonSchema({ multipleOf: 0 })).toThrow(/multipleOf/);
  });
});

describe('json-schema: strings', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(isValid({ maxLength: 2 }, '😀😀')).toBe(true);
    expect(isValid({ maxLength: 1 }, '😀😀')).toBe(false);
    expect(isValid({ minLength: 2 }, '😀')).toBe(false);
    expect(isValid({ minLength: 3 }, 'a😀b')).toBe(true);
  });

  it('matches pattern anywhere, with unicode semantics', () => {
    expect(isValid({ pattern: 'b+' }, 'abbbc')).toBe(true);
    expect(isValid({ pattern: '^b+$' }, 'abbbc')).toBe(false);
    expect(isValid({ pattern: '^.$' }, '😀')).toBe(true);
    expect(isValid({ pattern: '^\\p{Lu}' }, 'Éa')).toBe(true);
  });

  it('reports an invalid regex at compile time with its schema path', () => {
    try {
      compileJsonSchema({ properties: { a: { pattern: '(' } } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonSchemaCompileError);
      expect((error as JsonSchemaCompileError).schemaPath).toBe('#/properties/a/pattern');
    }
  });

  it('treats format as an annotation unless asked to assert it', () => {
    expect(isValid({ format: 'email' }, 'nope')).toBe(true);
    expect(isValid({ format: 'email' }, 'nope', { assertFormats: true })).toBe(false);
    expect(isValid({ format: 'made-up' }, 'x', { assertFormats: true })).toBe(true);
  });

  it.each([
    ['date-time', '2025-11-25T10:20:30Z', '2025-11-25 10:20:30Z'],
    ['date-time', '2024-02-29T23:59:60.5+05:30', '2023-02-29T00:00:00Z'],
    ['date', '2000-02-29', '1900-02-29'],
    ['time', '08:30:00-01:00', '24:00:00Z'],
    ['email', 'first.last+tag@example.co.uk', 'first..last@example.com'],
    ['uri', 'https://example.com/a?b=c#d', '/relative/path'],
    ['uri', 'urn:isbn:0451450523', 'http://exa mple.com'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567e89b12d3a456426614174000'],
    ['ipv4', '192.168.0.1', '256.1.1.1'],
    ['ipv4', '0.0.0.0', '01.2.3.4'],
    ['ipv6', '2001:db8::1', '2001:db8:::1'],
    ['ipv6', '::ffff:192.0.2.128', '1:2:3:4:5:6:7:8:9'],
    ['ipv6', '1:2:3:4:5:6:7:8', '12345::'],
  ])('asserts format %s (%s valid, %s invalid)', (format, good, bad) => {
    expect(isValid({ format }, good, { assertFormats: true })).toBe(true);
    expect(isValid({ format }, bad, { assertFormats: true })).toBe(false);
  });
});

describe('json-schema: arrays', () => {
  it('applies 2020-12 prefixItems and items to the rest', () => {
    const schema = { prefixItems: [{ type: 'string' }, { type: 'number' }], items: { type: 'boolean' } };
    expect(isValid(schema, ['a', 1, true, false])).toBe(true);
    expect(isValid(schema, ['a'])).toBe(true);
    expect(isValid(schema, ['a', 1, 'x'])).toBe(false);
    expect(errorsOf({ prefixItems: [true], items: false }, [1, 2])).toEqual([
      { path: '', keyword: 'items', message: 'must NOT have more than 1 items' },
    ]);
  });

  it('rejects array-form items in 2020-12 and applies it as a tuple in draft-07', () => {
    expect(() => compileJsonSchema({ items: [{ type: 'string' }] })).toThrow(/prefixItems/);
    const tuple = { $schema: DRAFT_07, items: [{ type: 'string' }], additionalItems: { type: 'number' } };
    expect(isValid(tuple, ['a', 1, 2])).toBe(true);
    expect(isValid(tuple, ['a', 'b'])).toBe(false);
    expect(isValid({ $schema: DRAFT_07, items: [{ type: 'string' }] }, ['a', 'b', 3])).toBe(true);
    // additionalItems means nothing without array-form items.
    expect(
      isValid({ $schema: DRAFT_07, items: { type: 'string' }, additionalItems: false }, ['a', 'b']),
    ).toBe(true);
    // prefixItems is not a draft-07 keyword, so it is an ignored annotation there.
    expect(isValid({ $schema: DRAFT_07, prefixItems: [{ type: 'string' }] }, [1])).toBe(true);
  });

  it('counts contains matches against minContains and maxContains', () => {
    expect(isValid({ contains: { type: 'string' } }, [1, 'a'])).toBe(true);
    expect(isValid({ contains: { type: 'string' } }, [1, 2])).toBe(false);
    expect(isValid({ contains: { type: 'string' } }, [])).toBe(false);
    expect(isValid({ contains: { type: 'string' }, minContains: 0 }, [])).toBe(true);
    expect(isValid({ contains: { type: 'string' }, minContains: 2 }, ['a', 1, 'b'])).toBe(true);
    expect(isValid({ contains: { type: 'string' }, maxContains: 1 }, ['a', 1, 'b'])).toBe(false);
    expect(isValid({ maxContains: 0 }, ['a'])).toBe(true);
    // Regression guards for cases where ajv 8.20 (the differential reference) is wrong.
    expect(isValid({ items: { contains: { type: 'null' } } }, [[null], []])).toBe(false);
    expect(isValid({ prefixItems: [{ type: 'string' }], contains: {} }, [])).toBe(false);
  });

  it('checks minItems, maxItems and deep uniqueItems', () => {
    expect(isValid({ minItems: 2 }, [1])).toBe(false);
    expect(isValid({ maxItems: 2 }, [1, 2, 3])).toBe(false);
    expect(isValid({ uniqueItems: true }, [1, '1', true])).toBe(true);
    expect(
      isValid({ uniqueItems: true }, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toBe(false);
    expect(isValid({ uniqueItems: true }, [1, 1.0])).toBe(false);
    const many = Array.from({ length: 50 }, (_, i) => ({ i }));
    expect(isValid({ uniqueItems: true }, many)).toBe(true);
    expect(isValid({ uniqueItems: true }, [...many, { i: 7 }])).toBe(false);
    expect(isValid({ uniqueItems: true }, [...many, [1], ['1']])).toBe(true);
    // Regression guards where ajv 8.20 is wrong: a tuple longer than the array (with a keyword at a
    // missing position) makes it skip uniqueItems; duplicates stay duplicates.
    expect(isValid({ uniqueItems: true, prefixItems: [{}, {}, { minItems: 1 }] }, [1, 1])).toBe(false);
    expect(
      isValid({ $schema: DRAFT_07, uniqueItems: true, items: [{}, {}, { minItems: 1 }] }, [null, null]),
    ).toBe(false);
    expect(isValid({ uniqueItems: true, prefixItems: [{}, {}, { minItems: 1 }] }, [1, 2])).toBe(true);
  });
});

describe('json-schema: objects', () => {
  it('validates properties, required, and additionalProperties', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name'],
      additionalProperties: false,
    };
    expect(isValid(schema, { name: 'Ada', age: 36 })).toBe(true);
    expect(errorsOf(schema, { age: -1, extra: true })).toEqual([
      { path: '/name', keyword: 'required', message: "must have required property 'name'" },
      { path: '/age', keyword: 'minimum', message: 'must be >= 0' },
      {
        path: '/extra',
        keyword: 'additionalProperties',
        message: "must NOT have additional property 'extra'",
      },
    ]);
  });

  it('lets patternProperties claim keys before additionalProperties', () => {
    const schema = {
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: { type: 'number' },
    };
    expect(isValid(schema, { 'x-a': 'a', b: 1 })).toBe(true);
    expect(isValid(schema, { 'x-a': 1 })).toBe(false);
    expect(isValid(schema, { b: 'b' })).toBe(false);
  });

  it('does not treat prototype members as properties', () => {
    expect(isValid({ required: ['constructor'] }, {})).toBe(false);
    expect(isValid({ properties: { toString: { type: 'string' } } }, {})).toBe(true);
    const proto = JSON.parse('{"__proto__": 5}') as unknown;
    expect(isValid({ properties: { __proto__: { type: 'string' } } } as JsonSchema, proto)).toBe(true);
    expect(isValid({ additionalProperties: false }, proto)).toBe(false);
  });

  it('checks propertyNames, minProperties and maxProperties', () => {
    expect(errorsOf({ propertyNames: { maxLength: 3 } }, { abcd: 1, ab: 2 })).toEqual([
      { path: '/abcd', keyword: 'propertyNames', message: "property name 'abcd' is invalid" },
    ]);
    expect(isValid({ minProperties: 1 }, {})).toBe(false);
    expect(isValid({ maxProperties: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it('applies dependentRequired and dependentSchemas, and draft-07 dependencies', () => {
    expect(isValid({ dependentRequired: { card: ['cvv'] } }, { card: 1 })).toBe(false);
    expect(isValid({ dependentRequired: { card: ['cvv'] } }, { cvv: 1 })).toBe(true);
    expect(isValid({ dependentSchemas: { card: { required: ['cvv'] } } }, { card: 1 })).toBe(false);
    const draft07 = { $schema: DRAFT_07, dependencies: { card: ['cvv'], bill: { required: ['address'] } } };
    expect(isValid(draft07, { card: 1, cvv: 2 })).toBe(true);
    expect(isValid(draft07, { bill: 1 })).toBe(false);
  });
});

describe('json-schema: combinators', () => {
  it('implements allOf, anyOf, oneOf and not', () => {
    expect(isValid({ allOf: [{ type: 'number' }, { minimum: 3 }] }, 2)).toBe(false);
    expect(isValid({ anyOf: [{ type: 'string' }, { minimum: 3 }] }, 4)).toBe(true);
    expect(isValid({ anyOf: [{ type: 'string' }, { minimum: 3 }] }, 2)).toBe(false);
    expect(isValid({ oneOf: [{ type: 'number' }, { minimum: 3 }] }, 4)).toBe(false);
    expect(isValid({ oneOf: [{ type: 'number' }, { minimum: 3 }] }, 2)).toBe(true);
    expect(isValid({ not: { type: 'string' } }, 'a')).toBe(false);
  });

  it('reports one error for a failed anyOf instead of every branch', () => {
    expect(errorsOf({ anyOf: [{ type: 'string' }, { type: 'number' }] }, null)).toEqual([
      { path: '', keyword: 'anyOf', message: 'must match at least one schema in anyOf' },
    ]);
  });

  it('implements if/then/else', () => {
    const schema = {
      if: { properties: { kind: { const: 'a' } } },
      then: { required: ['a'] },
      else: { required: ['b'] },
    };
    expect(isValid(schema, { kind: 'a', a: 1 })).toBe(true);
    expect(isValid(schema, { kind: 'a', b: 1 })).toBe(false);
    expect(isValid(schema, { kind: 'z', b: 1 })).toBe(true);
    expect(isValid({ then: false }, 1)).toBe(true);
  });

  it('handles boolean schemas everywhere', () => {
    expect(isValid(true, 'anything')).toBe(true);
    expect(errorsOf(false, 1)).toEqual([
      { path: '', keyword: 'false', message: 'no value is allowed here (false schema)' },
    ]);
    expect(isValid({ properties: { a: false } }, { a: 1 })).toBe(false);
    expect(isValid({ properties: { a: false } }, { b: 1 })).toBe(true);
  });

  it('ignores unknown keywords and annotations', () => {
    expect(isValid({ title: 'x', description: 'y', examples: [1], 'x-custom': { type: 'string' } }, 5)).toBe(
      true,
    );
  });
});

describe('json-schema: unevaluated*', () => {
  it('sees properties evaluated by in-place subschemas that passed', () => {
    const schema = {
      properties: { a: true },
      allOf: [{ properties: { b: true } }],
      anyOf: [{ properties: { c: { type: 'string' } } }, { properties: { d: true } }],
      unevaluatedProperties: false,
    };
    expect(isValid(schema, { a: 1, b: 2, d: 3 })).toBe(true);
    expect(isValid(schema, { a: 1, c: 'x', d: 3 })).toBe(true);
    // c fails its branch, so that branch's annotations are dropped and c is unevaluated.
    expect(errorsOf(schema, { c: 1 })).toEqual([
      { path: '/c', keyword: 'unevaluatedProperties', message: "must NOT have unevaluated property 'c'" },
    ]);
  });

  it('does not see the parent node’s annotations from inside a subschema', () => {
    expect(isValid({ properties: { a: true }, allOf: [{ unevaluatedProperties: false }] }, { a: 1 })).toBe(
      false,
    );
  });

  it('counts if/then/else, $ref and dependentSchemas', () => {
    const schema = {
      $defs: { named: { properties: { name: true } } },
      $ref: '#/$defs/named',
      if: { properties: { kind: { const: 'x' } }, required: ['kind'] },
      then: { properties: { x: true } },
      dependentSchemas: { y: { properties: { y: true } } },
      unevaluatedProperties: false,
    };
    expect(isValid(schema, { name: 1, kind: 'x', x: 1, y: 2 })).toBe(true);
    expect(isValid(schema, { kind: 'z', x: 1 })).toBe(false);
    // A dependentSchemas entry whose property is absent does not apply and takes nothing away.
    const dependent = {
      unevaluatedProperties: false,
      dependentSchemas: { a: { properties: { c: true } } },
      properties: { b: true },
    };
    expect(isValid(dependent, { b: null })).toBe(true);
    expect(isValid(dependent, { b: null, c: 1 })).toBe(false);
    expect(isValid(dependent, { a: 1, b: null, c: 1 })).toBe(false); // a itself is evaluated by nothing
  });

  it('tracks items from prefixItems, items and contains', () => {
    expect(isValid({ prefixItems: [true], unevaluatedItems: false }, [1])).toBe(true);
    expect(isValid({ prefixItems: [true], unevaluatedItems: false }, [1, 2])).toBe(false);
    expect(isValid({ allOf: [{ prefixItems: [true, true] }], unevaluatedItems: false }, [1, 2])).toBe(true);
    expect(
      isValid({ contains: { type: 'string' }, unevaluatedItems: { type: 'number' } }, ['a', 1, 'b']),
    ).toBe(true);
    expect(isValid({ contains: { type: 'string' }, unevaluatedItems: { type: 'number' } }, ['a', true])).toBe(
      false,
    );
    expect(isValid({ items: true, unevaluatedItems: false }, [1, 2])).toBe(true);
  });

  it('drops the items annotations of a failing subschema (2020-12 Core §7.7.1.2)', () => {
    // "Schema objects that produce a false assertion result MUST NOT produce any annotation results".
    const schema = { unevaluatedItems: false, anyOf: [{}, { prefixItems: [{ pattern: '^a' }] }] };
    expect(isValid(schema, ['x'])).toBe(false); // the prefixItems branch fails: 'x' stays unevaluated
    expect(isValid(schema, ['a'])).toBe(true);
    const props = { unevaluatedProperties: false, anyOf: [{}, { properties: { a: { pattern: '^a' } } }] };
    expect(isValid(props, { a: 'x' })).toBe(false);
    expect(isValid(props, { a: 'a' })).toBe(true);
  });

  it('sees the items annotations of a schema reached through a recursive $ref', () => {
    // 2020-12 Core §11.2: unevaluatedItems considers the annotations of adjacent keywords "and their
    // subschemas" ($ref included); `items` after `prefixItems` evaluates every remaining item. ajv 8.20
    // drops the `items` annotation when the $ref is recursive, so the differential test keeps these apart.
    const withItems = {
      prefixItems: [{ $ref: '#', unevaluatedItems: false }],
      items: { type: ['number', 'array'] },
    };
    expect(isValid(withItems, [[1, 2]])).toBe(true);
    expect(isValid(withItems, [[[1, 2, 3], 2]])).toBe(true);
    expect(isValid(withItems, [['x', 2]])).toBe(true); // 'x' sits under the inner A: no array, nothing to check
    expect(isValid(withItems, [[1, 'x']])).toBe(false); // items rejects 'x'
    const noItems = { prefixItems: [{ $ref: '#', unevaluatedItems: false }, true] };
    expect(isValid(noItems, [[1, 2]])).toBe(true);
    expect(isValid(noItems, [[1, 2, 3]])).toBe(false); // the third item is evaluated by nothing
  });

  it('nests: an inner unevaluatedProperties marks everything evaluated for the outer one', () => {
    const schema = { allOf: [{ unevaluatedProperties: true }], unevaluatedProperties: false };
    expect(isValid(schema, { anything: 1 })).toBe(true);
  });

  it('is an ignored annotation in draft-07', () => {
    expect(isValid({ $schema: DRAFT_07, unevaluatedProperties: false }, { a: 1 })).toBe(true);
  });
});

describe('json-schema: errors and limits', () => {
  it('uses escaped JSON Pointer paths to the failing value', () => {
    const schema = { properties: { 'a/b': { items: { properties: { 'c~d': { type: 'string' } } } } } };
    expect(errorsOf(schema, { 'a/b': [{}, { 'c~d': 1 }] })).toEqual([
      { path: '/a~1b/1/c~0d', keyword: 'type', message: 'must be string' },
    ]);
  });

  it('stops after maxErrors', () => {
    const schema = { items: { type: 'string' } };
    expect(
      errorsOf(
        schema,
        Array.from({ length: 100 }, () => 1),
      ),
    ).toHaveLength(20);
    expect(errorsOf(schema, [1, 2, 3], { maxErrors: 1 })).toHaveLength(1);
  });

  it('turns runaway recursion into a validation error instead of a stack overflow', () => {
    const schema = {
      $defs: { list: { properties: { next: { $ref: '#/$defs/list' } } } },
      $ref: '#/$defs/list',
    };
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const result = compileJsonSchema(schema).validate(deep);
    expect(result.valid).toBe(false);
    expect(!result.valid && result.errors.at(-1)?.keyword).toBe('maxDepth');
    expect(compileJsonSchema({ $ref: '#' }).validate(1).valid).toBe(false);
    let nested: unknown = [];
    for (let i = 0; i < 5_000; i++) nested = [nested];
    expect(compileJsonSchema({ const: 1 }).validate(nested).valid).toBe(false);
    expect(compileJsonSchema({ uniqueItems: true }).validate([nested, nested]).valid).toBe(false);
  });

  it('reports an absurdly deep schema as a compile error, not a crash', () => {
    let schema: JsonSchema = {};
    for (let i = 0; i < 100_000; i++) schema = { not: schema };
    expect(() => compileJsonSchema(schema)).toThrow(JsonSchemaCompileError);
  });

  it('rejects malformed keyword values at compile time', () => {
    expect(() => compileJsonSchema({ type: 'strin' })).toThrow(/unknown type/);
    // A server's schema naming Object.prototype members as types: unknown, not a prototype function.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(() => compileJsonSchema({ type: name })).toThrow(/unknown type/);
    }
    expect(() => compileJsonSchema({ required: 'a' })).toThrow(/required/);
    expect(() => compileJsonSchema({ minLength: -1 })).toThrow(/minLength/);
    expect(() => compileJsonSchema({ properties: { a: 5 } })).toThrow(/#\/properties\/a/);
    expect(() => compileJsonSchema({ anyOf: [] })).toThrow(/anyOf/);
  });

  it('rejects unsupported dialects and accepts the supported spellings', () => {
    expect(() => compileJsonSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toThrow(
      /unsupported dialect/,
    );
    expect(compileJsonSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema' }).dialect).toBe(
      '2020-12',
    );
    expect(compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema' }).dialect).toBe('draft-07');
    expect(compileJsonSchema({}).dialect).toBe('2020-12');
  });

  it('keeps results independent across calls that reuse internal state', () => {
    const list = {
      $defs: { l: { properties: { next: { $ref: '#/$defs/l' } }, required: ['v'] } },
      $ref: '#/$defs/l',
    };
    const { validate } = compileJsonSchema(list, { maxDepth: 8 });
    let deep: unknown = { v: 1 };
    for (let i = 0; i < 20; i++) deep = { v: 1, next: deep };
    expect(validate({ v: 1 })).toEqual({ valid: true });
    const invalid = validate({ next: { v: 1 } });
    expect(validate(deep).valid).toBe(false);
    expect(validate({ v: 1, next: { v: 2 } })).toEqual({ valid: true });
    expect(invalid).toEqual({
      valid: false,
      errors: [{ path: '/v', keyword: 'required', message: "must have required property 'v'" }],
    });
    expect(validate({ next: {} })).toEqual({
      valid: false,
      errors: [
        { path: '/v', keyword: 'required', message: "must have required property 'v'" },
        { path: '/next/v', keyword: 'required', message: "must have required property 'v'" },
      ],
    });
  });

  it('lets validate be detached from its validator', () => {
    const { validate } = compileJsonSchema({ type: 'string' });
    expect(validate('a')).toEqual({ valid: true });
  });
});

import { describe, expect, it } from 'vitest';
import { parseArguments } from '../src/args/tool-arguments.js';

const schema = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    loud: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    options: { type: 'object' },
    maybe: { type: ['integer', 'null'] },
    mode: { enum: ['fast', 'slow'] },
    level: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['max'] }] },
    address: { $ref: '#/$defs/address' },
  },
  $defs: { address: { type: 'object' } },
};

const args = (...tokens: string[]) => parseArguments({ tokens, schema });

describe('key=value typed from the input schema', () => {
  it('parses numbers, integers and booleans', () => {
    expect(args('count=3', 'ratio=0.5', 'loud=true')).toEqual({ count: 3, ratio: 0.5, loud: true });
    expect(args('loud=false').loud).toBe(false);
  });

  it('keeps strings verbatim, even when they look like JSON', () => {
    expect(args('text=42', 'mode=fast')).toEqual({ text: '42', mode: 'fast' });
    expect(args('text=true').text).toBe('true');
    expect(args('text="quoted"').text).toBe('"quoted"');
    expect(args('text=a=b').text).toBe('a=b');
    expect(args('text=').text).toBe('');
  });

  it('reads arrays and objects as JSON', () => {
    expect(args('tags=["a","b"]', 'options={"deep":{"x":1}}')).toEqual({
      tags: ['a', 'b'],
      options: { deep: { x: 1 } },
    });
    expect(args('address={"city":"Oslo"}').address).toEqual({ city: 'Oslo' });
  });

  it('reads arrays as a,b,c too (items typed), and appends a repeated key', () => {
    expect(args('tags=a,b').tags).toEqual(['a', 'b']);
    expect(args('ids=1,2,3').ids).toEqual([1, 2, 3]);
    expect(args('tags=a', 'tags=b', 'tags=c').tags).toEqual(['a', 'b', 'c']);
  });

  it('handles unions: a type list, anyOf', () => {
    expect(args('maybe=null').maybe).toBeNull();
    expect(args('maybe=7').maybe).toBe(7);
    expect(args('level=3').level).toBe(3);
    expect(args('level=max').level).toBe('max');
  });

  it('rejects a value the schema does not allow', () => {
    expect(() => args('count=three')).toThrow("argument count expects an integer, got 'three'");
    expect(() => args('count=1.5')).toThrow(/expects an integer/);
    expect(() => args('loud=maybe')).toThrow("argument loud expects a boolean (true/false), got 'maybe'");
    expect(() => args('options=x')).toThrow("argument options expects a JSON object, got 'x'");
    expect(() => args('maybe=x')).toThrow(/expects an integer or null/);
    expect(() => args('ids=1,x')).toThrow(/argument ids\[\] expects an integer/);
  });

  it('keeps undescribed keys as strings; key:=json sets raw JSON', () => {
    expect(args('other=5')).toEqual({ other: '5' });
    expect(args('other:=5', 'list:=[1,2]', 'obj:={"a":null}')).toEqual({
      other: 5,
      list: [1, 2],
      obj: { a: null },
    });
    expect(() => args('other:=nope')).toThrow(/other:= expects JSON/);
  });

  it('merges --args JSON, JSON positionals and key=value, later ones winning', () => {
    expect(
      parseArguments({
        tokens: ['{"count":2,"text":"x"}', 'count=5'],
        json: '{"count":1,"loud":true}',
        schema,
      }),
    ).toEqual({ count: 5, text: 'x', loud: true });
    expect(() => parseArguments({ tokens: [], json: '[1]' })).toThrow(/--args must be a JSON object/);
    expect(() => parseArguments({ tokens: ['{oops'] })).toThrow(/JSON argument must be a JSON object/);
  });

  it('rejects tokens that are not key=value', () => {
    expect(() => args('count')).toThrow(/expected key=value/);
    expect(() => args('=3')).toThrow(/expected key=value/);
  });

  it('without a schema, values stay strings', () => {
    expect(parseArguments({ tokens: ['n=1', 'b=true'] })).toEqual({ n: '1', b: 'true' });
  });

  it('stringsOnly (prompt arguments) never converts', () => {
    expect(parseArguments({ tokens: ['n=1'], schema, stringsOnly: true })).toEqual({ n: '1' });
  });
});

import { describe, expect, it } from 'vitest';
import { isUriTemplate, UriTemplate, UriTemplateError } from '../src/uri-template.js';

// Values and expectations from RFC 6570 §3.2.
const values = {
  var: 'value',
  hello: 'Hello World!',
  path: '/foo/bar',
  empty: '',
  list: ['red', 'green', 'blue'],
  x: '1024',
  y: '768',
};

describe('UriTemplate.expand (RFC 6570 examples)', () => {
  it.each([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['map?{x,y}', 'map?1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['{var:3}', 'val'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{.list*}', '.red.green.blue'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{undefinedvar}', ''],
  ])('%s → %s', (template, expected) => {
    expect(new UriTemplate(template).expand(values)).toBe(expected);
  });
});

describe('UriTemplate.match', () => {
  it('recovers simple and reserved variables', () => {
    expect(new UriTemplate('users://{id}/profile').match('users://42/profile')).toEqual({ id: '42' });
    expect(new UriTemplate('file:///{+path}').match('file:///src/a%20b.ts')).toEqual({ path: 'src/a b.ts' });
    expect(new UriTemplate('users://{id}/profile').match('users://42/other')).toBeUndefined();
    expect(new UriTemplate('users://{id}').match('users://4/2')).toBeUndefined();
  });

  it('recovers query parameters in any order and path lists', () => {
    const template = new UriTemplate('search://items{?q,limit}');
    expect(template.match('search://items?limit=5&q=a%20b')).toEqual({ q: 'a b', limit: '5' });
    expect(template.match('search://items')).toEqual({});
    expect(new UriTemplate('tree://{/parts*}').match('tree:///a/b/c')).toEqual({ parts: ['a', 'b', 'c'] });
  });

  it('round-trips expand → match', () => {
    const template = new UriTemplate('repo://{owner}/{name}/blob/{+path}{?ref}');
    const vars = { owner: 'x mcp', name: 'sdk', path: 'src/index.ts', ref: 'main' };
    expect(template.match(template.expand(vars))).toEqual(vars);
  });

  it('answers hostile input without backtracking blow-up (a regex version took 37 s here)', () => {
    const template = new UriTemplate('a://{+x}{+y}{+z}b');
    expect(template.match(`a://${'c'.repeat(16_000)}`)).toBeUndefined();
    expect(template.match(`a://${'c'.repeat(16_000)}b`)).toEqual({ x: 'c'.repeat(16_000), y: '', z: '' });
    expect(template.match(`a://${'c'.repeat(20_000)}b`)).toBeUndefined();
  });

  describe('costs time linear in the URI (issue #24 item 7: a 16 KB `?a=&a=…` took 28-68 ms per template)', () => {
    /** Hostile shapes, each a URI of about `bytes` characters against a template it nearly fits. */
    const SHAPES: Array<[string, string, (bytes: number) => string]> = [
      ['repeated query names', 'test://items{?a}', (n) => fill('test://items?', 'a=&', n)],
      ['repeated exploded names', 'test://items{?a*}', (n) => fill('test://items?', 'a=x&', n)],
      ['names without values', 'test://items{?a,b}', (n) => fill('test://items?', 'a&b&', n)],
      ['exploded path segments', 'test://p{/seg*}', (n) => fill('test://p', '/s', n)],
      ['near-miss literal after reserved', 'a://{+x}.txt', (n) => fill('a://', '.tx', n)],
      ['percent-encoded list', 'l://{list}', (n) => fill('l://', '%41,', n)],
    ];

    /** `head` and as many `unit`s as fit in `bytes` (16 KB is the most a URI may have). */
    function fill(head: string, unit: string, bytes: number): string {
      return head + unit.repeat(Math.floor((bytes - head.length) / unit.length));
    }

    /**
     * Steps taken through array iterators while matching: a deterministic operation count that grows
     * with the square of the repetitions when a list is copied per repetition (`[...list, value]`).
     */
    function iteratorSteps(run: () => void): number {
      const prototype = Object.getPrototypeOf([][Symbol.iterator]()) as { next: () => unknown };
      const original = prototype.next;
      let steps = 0;
      prototype.next = function (this: unknown) {
        steps++;
        return original.call(this);
      };
      try {
        run();
      } finally {
        prototype.next = original;
      }
      return steps;
    }

    it.each(SHAPES)('%s: operation count grows linearly (4 KB → 16 KB at most ×5)', (_, text, uriOf) => {
      const template = new UriTemplate(text);
      const largeUri = uriOf(16_384);
      expect(largeUri.length).toBeLessThanOrEqual(16_384);
      const small = iteratorSteps(() => template.match(uriOf(4096)));
      const large = iteratorSteps(() => template.match(largeUri));
      expect(large).toBeLessThanOrEqual(Math.max(5 * small, 64));
    });

    it('refuses a 64 KB URI at once: it is over the 16 KB a URI may have', () => {
      const template = new UriTemplate('test://items{?a}');
      const steps = iteratorSteps(() => {
        expect(template.match(fill('test://items?', 'a=&', 65_536))).toBeUndefined();
      });
      expect(steps).toBe(0);
    });
  });

  it('splits multi-variable and named expressions', () => {
    expect(new UriTemplate('map://{x,y}').match('map://1024,768')).toEqual({ x: '1024', y: '768' });
    expect(new UriTemplate('m://p{;x,y}').match('m://p;y=2;x=1')).toEqual({ x: '1', y: '2' });
    expect(new UriTemplate('f:///{+path}.txt').match('f:///a.b.txt')).toEqual({ path: 'a.b' });
  });

  it('lists variable names and rejects malformed templates', () => {
    expect(new UriTemplate('x://{a}/{+b}{?c,d}').variableNames).toEqual(['a', 'b', 'c', 'd']);
    expect(() => new UriTemplate('x://{a')).toThrow(UriTemplateError);
    expect(() => new UriTemplate('x://{a b}')).toThrow(UriTemplateError);
    expect(isUriTemplate('x://{a}')).toBe(true);
    expect(isUriTemplate('x://fixed')).toBe(false);
  });
});

/** Appends one reference token to a JSON Pointer, escaping `~` and `/` (RFC 6901 §3). */
export function appendPointer(pointer: string, token: string | number): string {
  if (typeof token === 'number') return pointer + '/' + token;
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return pointer + '/' + token;
  return pointer + '/' + token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Splits a JSON Pointer into unescaped reference tokens; `''` is the whole document. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new SyntaxError(`JSON Pointer must start with "/": ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

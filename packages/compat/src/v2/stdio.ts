// `@x/compat/stdio`: `@modelcontextprotocol/server/stdio` and `@modelcontextprotocol/client/stdio`
// 2.x in one entry (their names do not collide), so an `npm:` alias of either package finds its own.
export * from './server/stdio.js';
export * from './client/stdio.js';

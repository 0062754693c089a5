// `@x/compat`'s main entry: `@modelcontextprotocol/server`, `@modelcontextprotocol/client` and
// `@modelcontextprotocol/node` 2.x in one (names they share are the same objects here), so
// `"@modelcontextprotocol/server": "npm:@x/compat@…"` (and `/client`, `/node`) all work.
export * from './server/index.js';
export * from './client/index.js';
export * from './node/index.js';

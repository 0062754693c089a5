// `@modelcontextprotocol/sdk/experimental` of the official SDK 1.x: the tasks entry, the same names.
export * from './tasks/index.js';

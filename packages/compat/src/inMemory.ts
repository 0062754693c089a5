// `@modelcontextprotocol/sdk/inMemory.js` of the official SDK 1.x: x-mcp's pair has the same
// `InMemoryTransport.createLinkedPair()`.
export { InMemoryTransport } from '@x/protocol/core';

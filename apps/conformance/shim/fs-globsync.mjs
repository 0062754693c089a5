// The real 'fs' plus a `globSync` stub, so the bundle links on Node 20. Only `tier-check` calls
// globSync, and that command needs the network, which CI here does not have.
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export function globSync() {
  throw new Error('fs.globSync needs Node >= 22 (only the conformance tier-check command uses it)');
}

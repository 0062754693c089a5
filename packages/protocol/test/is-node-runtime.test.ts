import { describe, expect, it } from 'vitest';
import { isNodeRuntime } from '../src/http/is-node-runtime.js';

// Issue 30, item 2: only Node itself gets undici (both HTTP client transports ask isNodeRuntime); every other runtime uses its own global
// `fetch`. Bun, Deno and workerd each set `process.versions.node` too (workerd even without
// `nodejs_compat`), and a Workers bundle maps undici to nothing, so taking workerd for Node made every
// request fail with "(void 0) is not a constructor" (apps/runtimes/test/workerd.test.ts runs the client
// in the real workerd).
describe('isNodeRuntime', () => {
  const node = { versions: { node: '22.23.4' } };

  it('is true for this Node process', () => {
    expect(isNodeRuntime()).toBe(true);
  });

  it.each([
    ['workerd', { process: node, navigator: { userAgent: 'Cloudflare-Workers' } }],
    ['Bun', { process: node, Bun: {} }],
    ['Deno', { process: node, Deno: {} }],
    ['a browser', { navigator: { userAgent: 'Mozilla/5.0' } }],
  ])('is false on %s', (_name, global) => {
    expect(isNodeRuntime(global)).toBe(false);
  });

  it('is true for Node 21+ (navigator.userAgent "Node.js/22")', () => {
    expect(isNodeRuntime({ process: node, navigator: { userAgent: 'Node.js/22' } })).toBe(true);
  });
});

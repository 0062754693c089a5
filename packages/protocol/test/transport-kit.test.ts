import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from '../src/core.js';
import * as http from '../src/http/index.js';
import * as kit from '../src/transport-kit.js';

const srcDir = join(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every source file and every bare specifier reachable from `entry` (type-only imports included). */
function importGraph(entry: string): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    // Comments hold `@example` imports; only code counts.
    const source = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const match of source.matchAll(
      /(?:import|export)[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g,
    )) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else external.add(specifier);
    }
  };
  visit(join(srcDir, entry));
  return { files: [...files].map((file) => file.slice(srcDir.length + 1)), external: [...external] };
}

describe('@x/protocol/transport', () => {
  it('is a package entry, resolved to its source under @x/source like ./http', () => {
    const manifest = JSON.parse(readFileSync(join(srcDir, '../package.json'), 'utf8'));
    expect(manifest.exports['./transport']).toEqual({
      '@x/source': './src/transport-kit.ts',
      types: './dist/transport-kit.d.ts',
      default: './dist/transport-kit.js',
    });
  });

  it('reaches no zod module and no node: module, so a browser transport can use it', () => {
    const { files, external } = importGraph('transport-kit.ts');
    expect(external).toEqual([]);
    expect(files.filter((file) => file.startsWith('schemas/') || file.startsWith('node/'))).toEqual([]);
  });

  it('holds everything a transport needs, the same values the other entries export (no copies)', () => {
    expect(typeof kit.deliverMessage).toBe('function');
    expect(new kit.InFlightMap<number, string>().size).toBe(0);
    expect(new kit.InFlightSet<number>().size).toBe(0);
    expect(new kit.CancelHandle().aborted).toBe(false);
    expect(kit.randomUuid()).toMatch(/^[0-9a-f-]{36}$/);
    expect(kit.isThenable(Promise.resolve(1))).toBe(true);
    expect(kit.JsonLineDecoder).toBe(core.JsonLineDecoder);
    expect(kit.encodeJsonLine({ jsonrpc: '2.0', method: 'ping' })).toBe(
      '{"jsonrpc":"2.0","method":"ping"}\n',
    );
    expect(kit.MessageTooLargeError).toBe(core.MessageTooLargeError);
    expect(kit.DEFAULT_MAX_LINE_BYTES).toBe(core.DEFAULT_MAX_LINE_BYTES);
    expect(kit.readBatch).toBe(core.readBatch);
    expect(kit.BatchResponses).toBe(core.BatchResponses);
    expect(kit.duplicateRequestError).toBe(core.duplicateRequestError);
    expect(kit.DEFAULT_MAX_BATCH_SIZE).toBe(core.DEFAULT_MAX_BATCH_SIZE);
    expect(kit.exceedsNestingDepth('[[[]]]', 2)).toBe(true);
    expect(kit.DEFAULT_MAX_NESTING_DEPTH).toBe(core.DEFAULT_MAX_NESTING_DEPTH);
    expect(kit.resolveReconnect).toBe(core.resolveReconnect);
    expect(kit.reconnectDelay).toBe(core.reconnectDelay);
    expect(kit.TransportLostError).toBe(core.TransportLostError);
    expect(kit.ConnectionClosedError).toBe(core.ConnectionClosedError);
    // Runtime-neutral pieces of ./http are the same instances here (an `instanceof` check holds across
    // entries); the HTTP-only ones (Host/Origin, forwarded headers) stay in ./http alone.
    expect(kit.RateLimiter).toBe(http.RateLimiter);
    expect(kit.DEFAULT_RATE_LIMIT).toBe(http.DEFAULT_RATE_LIMIT);
    expect(kit.principalOf).toBe(http.principalOf);
    expect(kit.subjectOf).toBe(http.subjectOf);
    expect(Object.keys(kit)).not.toContain('createDnsRebindingGuard');
    expect(Object.keys(kit)).not.toContain('TrustedProxies');
  });
});

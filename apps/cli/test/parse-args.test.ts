import { describe, expect, it } from 'vitest';
import { readClientOptions } from '../src/args/client-options.js';
import { parseArgs } from '../src/args/parse-args.js';
import { resolveTarget } from '../src/args/target.js';
import { UsageError } from '../src/args/usage-error.js';
import { OPTIONS } from '../src/cli-spec.js';

const parse = (...argv: string[]) => parseArgs(argv, OPTIONS);

describe('parseArgs', () => {
  it('splits command, positionals, options and the stdio command after --', () => {
    const parsed = parse('call', 'echo', 'message=hi', '--json', '--', 'node', 'server.js', '--json');
    expect(parsed.command).toBe('call');
    expect(parsed.positionals).toEqual(['echo', 'message=hi']);
    expect([...parsed.flags]).toEqual(['json']);
    expect(parsed.serverCommand).toEqual(['node', 'server.js', '--json']);
  });

  it('takes option values as --name value, --name=value, -X value and -Xvalue', () => {
    const parsed = parse('tools', '--timeout', '5', '-H', 'A: 1', '-HB: 2', '--header=C: 3', 'http://h/mcp');
    expect(parsed.values.get('timeout')).toEqual(['5']);
    expect(parsed.values.get('header')).toEqual(['A: 1', 'B: 2', 'C: 3']);
    expect(parsed.positionals).toEqual(['http://h/mcp']);
  });

  it('lets options come anywhere before --, and the last value of a single option win', () => {
    const parsed = parse('--json', 'tools', '--timeout', '1', 'http://h/mcp', '--timeout', '2');
    expect(parsed.command).toBe('tools');
    expect(parsed.values.get('timeout')).toEqual(['2']);
  });

  it('keeps values that start with a dash, and negative numbers as positionals', () => {
    expect(parse('call', '-H', '-x: y').values.get('header')).toEqual(['-x: y']);
    expect(parse('complete', 'prompt:p', 'n', '-1').positionals).toEqual(['prompt:p', 'n', '-1']);
  });

  it('has no serverCommand without --, and an empty one after a trailing --', () => {
    expect(parse('tools', 'http://h').serverCommand).toBeUndefined();
    expect(parse('tools', '--').serverCommand).toEqual([]);
  });

  it('rejects unknown options with a suggestion, missing values and values on flags', () => {
    expect(() => parse('tools', '--jsn')).toThrow(/unknown option --jsn \(did you mean --json\?\)/);
    expect(() => parse('tools', '-Z')).toThrow(UsageError);
    expect(() => parse('tools', '--timeout')).toThrow(/option --timeout needs a value <ms>/);
    expect(() => parse('tools', '--timeout', '--', 'node')).toThrow(/needs a value/);
    expect(() => parse('tools', '--json=yes')).toThrow(/option --json takes no value/);
    expect(() => parse('tools', '-hV')).toThrow(/combined short flags are not supported/);
  });
});

describe('resolveTarget', () => {
  it('takes the last positional as an http(s) or ws(s) URL', () => {
    const http = resolveTarget({
      positionals: ['echo', 'a=1', 'https://host/mcp'],
      serverCommand: undefined,
    });
    expect(http.target).toMatchObject({ kind: 'http' });
    expect(http.rest).toEqual(['echo', 'a=1']);
    const ws = resolveTarget({ positionals: ['wss://host/mcp'], serverCommand: undefined });
    expect(ws.target.kind).toBe('ws');
  });

  it('takes a grpc(s)://host:port URL last as a gRPC target, never part of a failover pair', () => {
    const { target, rest } = resolveTarget({
      positionals: ['http://h/doc', 'grpcs://h:8443'],
      serverCommand: undefined,
    });
    expect(target).toMatchObject({ kind: 'grpc' });
    expect(target.kind === 'grpc' && target.url.host).toBe('h:8443');
    expect(rest).toEqual(['http://h/doc']);
    expect(() => resolveTarget({ positionals: ['grpc://h'], serverCommand: undefined })).toThrow(
      /give grpc:\/\/host:port/,
    );
  });

  it('takes a ws(s) and an http(s) URL last as one failover target, WebSocket first', () => {
    const { target, rest } = resolveTarget({
      positionals: ['echo', 'http://h/mcp', 'ws://h/ws'],
      serverCommand: undefined,
    });
    expect(target).toMatchObject({ kind: 'failover' });
    expect(target.kind === 'failover' && [target.url.href, target.http.href]).toEqual([
      'ws://h/ws',
      'http://h/mcp',
    ]);
    expect(rest).toEqual(['echo']);
    // Two http(s) URLs are a resource URI and the target, as before.
    expect(
      resolveTarget({ positionals: ['https://a/doc', 'http://h/mcp'], serverCommand: undefined }).target.kind,
    ).toBe('http');
  });

  it('keeps a URL-looking resource URI as the command argument when the target comes last', () => {
    const { target, rest } = resolveTarget({
      positionals: ['https://example.com/doc', 'http://127.0.0.1:3000/mcp'],
      serverCommand: undefined,
    });
    expect(target).toMatchObject({ kind: 'http' });
    expect(rest).toEqual(['https://example.com/doc']);
  });

  it('with --, every positional belongs to the command', () => {
    const { target, rest } = resolveTarget({
      positionals: ['http://x/y'],
      serverCommand: ['node', 's.js', '-v'],
    });
    expect(target).toEqual({ kind: 'stdio', command: 'node', args: ['s.js', '-v'] });
    expect(rest).toEqual(['http://x/y']);
  });

  it('explains a missing or unusable target', () => {
    expect(() => resolveTarget({ positionals: [], serverCommand: undefined })).toThrow(/missing target/);
    expect(() => resolveTarget({ positionals: ['file:///x'], serverCommand: undefined })).toThrow(
      /'file:\/\/\/x' is not a server URL/,
    );
    expect(() => resolveTarget({ positionals: [], serverCommand: [] })).toThrow(/nothing after --/);
  });
});

describe('readClientOptions', () => {
  it('reads headers, env, timeout, era and log level', () => {
    const options = readClientOptions(
      parse(
        'tools',
        '-H',
        'Authorization: Bearer a:b',
        '-e',
        'KEY=v=1',
        '--timeout',
        '250',
        '--legacy',
        '--log-level',
        'debug',
      ),
    );
    expect(options).toMatchObject({
      headers: { Authorization: 'Bearer a:b' },
      env: { KEY: 'v=1' },
      timeout: 250,
      protocolVersion: 'legacy',
      logLevel: 'debug',
      json: false,
    });
    expect(readClientOptions(parse('tools')).protocolVersion).toBe('auto');
    expect(readClientOptions(parse('tools', '--protocol-version', '2026-07-28')).protocolVersion).toBe(
      '2026-07-28',
    );
  });

  it('rejects contradictions and bad values', () => {
    expect(() => readClientOptions(parse('tools', '--legacy', '--protocol-version', '2025-06-18'))).toThrow(
      /either --legacy or --protocol-version/,
    );
    expect(() => readClientOptions(parse('tools', '--timeout', '0'))).toThrow(/positive number/);
    expect(() => readClientOptions(parse('tools', '--log-level', 'loud'))).toThrow(/unknown --log-level/);
    expect(() => readClientOptions(parse('tools', '-e', '=x'))).toThrow(/KEY=VALUE/);
    expect(() => readClientOptions(parse('tools', '-H', 'Bad Name: x'))).toThrow(/'Name: value'/);
  });
});

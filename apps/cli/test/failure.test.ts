import { NegotiationError } from '@x/client';
import { ConnectionClosedError, McpError, RequestTimeoutError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/args/usage-error.js';
import { describeFailure } from '../src/errors/failure.js';
import { ConnectError } from '../src/session/connect-error.js';

const refused = Object.assign(new Error('fetch failed'), {
  cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
});
const http400 = Object.assign(new Error('POST failed'), {
  status: 400,
  rpcError: { code: -32600, message: 'Missing sessionId' },
});

describe('describeFailure', () => {
  it('usage → 2', () => {
    expect(describeFailure(new UsageError('bad'), { connecting: false })).toMatchObject({ exitCode: 2 });
  });

  it('a JSON-RPC error from the server → 1, with its code and data', () => {
    const failure = describeFailure(new McpError(-32602, 'Unknown tool: x', { name: 'x' }), {
      connecting: false,
    });
    expect(failure).toEqual({ exitCode: 1, message: 'Unknown tool: x', code: -32602, data: { name: 'x' } });
  });

  it('a timed-out request → 1; a handshake nobody answers → 3', () => {
    expect(describeFailure(new RequestTimeoutError('slow'), { connecting: false }).exitCode).toBe(1);
    expect(describeFailure(new RequestTimeoutError('slow'), { connecting: true }).exitCode).toBe(3);
  });

  it('no common protocol version → 1, naming what the server offers', () => {
    const failure = describeFailure(new NegotiationError('no match', ['2024-11-05']), { connecting: true });
    expect(failure.exitCode).toBe(1);
    expect(failure.message).toContain('server offers: 2024-11-05');
  });

  it('network failures → 3, with the reason and the target', () => {
    expect(describeFailure(refused, { connecting: true, target: 'http://h/mcp' })).toMatchObject({
      exitCode: 3,
      message: 'cannot connect to http://h/mcp: connection refused (ECONNREFUSED)',
    });
    const dual = new AggregateError([refused.cause], 'all addresses failed');
    expect(describeFailure(dual, { connecting: true }).message).toBe('connection refused (ECONNREFUSED)');
  });

  it('an HTTP refusal while connecting → 3, even with a JSON-RPC body', () => {
    expect(describeFailure(http400, { connecting: true })).toMatchObject({
      exitCode: 3,
      message: 'HTTP 400: -32600 Missing sessionId',
    });
  });

  it('a dropped connection → 3', () => {
    expect(describeFailure(new ConnectionClosedError('gone'), { connecting: false })).toMatchObject({
      exitCode: 3,
      code: -32000,
    });
    expect(describeFailure(new ConnectError('timed out'), { connecting: true, target: 'x' })).toEqual({
      exitCode: 3,
      message: 'timed out',
    });
  });

  it('anything else → 3 while connecting, 1 afterwards', () => {
    expect(describeFailure(new Error('odd'), { connecting: true }).exitCode).toBe(3);
    expect(describeFailure(new Error('odd'), { connecting: false }).exitCode).toBe(1);
  });
});

describe('describeFailure: first-use explanations (issue 30, item 6)', () => {
  const tls = (code: string) =>
    Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error(`tls: ${code}`), { code }) });

  it('TLS certificate problems say what is wrong and how to trust a private CA', () => {
    expect(describeFailure(tls('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), { connecting: true }).message).toBe(
      "TLS: the server's certificate is signed by an unknown authority; to trust it, set NODE_EXTRA_CA_CERTS to its CA certificate's PEM file (UNABLE_TO_VERIFY_LEAF_SIGNATURE)",
    );
    expect(describeFailure(tls('CERT_HAS_EXPIRED'), { connecting: true })).toMatchObject({
      exitCode: 3,
      message: "TLS: the server's certificate has expired (CERT_HAS_EXPIRED)",
    });
    expect(describeFailure(tls('ERR_TLS_CERT_ALTNAME_INVALID'), { connecting: true }).message).toMatch(
      /not issued for this host name/,
    );
  });

  it('a stdio server that exited: its exit code or signal and last stderr lines (ServerExitError by shape)', () => {
    const exited = Object.assign(new ConnectionClosedError('MCP server "srv" exited with code 2'), {
      command: 'srv',
      exitCode: 2,
      signal: null,
      stderrTail: ['Error: EACCES', '  at open'],
    });
    expect(describeFailure(exited, { connecting: false })).toEqual({
      exitCode: 3,
      message: 'the server process exited with code 2; its last stderr lines:',
      details: ['Error: EACCES', '  at open'],
    });
    const killed = Object.assign(new ConnectionClosedError('killed'), {
      command: 'srv',
      exitCode: null,
      signal: 'SIGTERM',
      stderrTail: [],
    });
    expect(describeFailure(killed, { connecting: true, target: 'srv' }).message).toBe(
      'cannot connect to srv: the server process was killed by SIGTERM (it wrote nothing to stderr)',
    );
  });
});

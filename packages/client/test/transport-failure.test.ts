import { ConnectionClosedError, ErrorCode, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import {
  httpStatusOf,
  isModernServerError,
  isTransportLevelFailure,
  supportedVersionsOf,
  wireErrorOf,
} from '../src/transport-failure.js';

/** What an HTTP transport throws from send(): a status and, when the body held one, the JSON-RPC error. */
const httpError = (status: number, rpcError?: { code: number; message: string; data?: unknown }) =>
  Object.assign(new Error(`HTTP ${status}`), { status, rpcError });

describe('transport failure classification', () => {
  it('treats 4xx without a modern error body as a transport-level failure (auth excepted)', () => {
    expect(isTransportLevelFailure(httpError(404))).toBe(true);
    expect(isTransportLevelFailure(httpError(405))).toBe(true);
    expect(isTransportLevelFailure(new Error('wrapped', { cause: httpError(400) }))).toBe(true);
    expect(isTransportLevelFailure(httpError(400, { code: ErrorCode.MethodNotFound, message: 'nope' }))).toBe(
      true,
    );
    expect(isTransportLevelFailure(httpError(401))).toBe(false);
    expect(isTransportLevelFailure(httpError(503))).toBe(false);
    expect(isTransportLevelFailure(new McpError(ErrorCode.MethodNotFound, 'x'))).toBe(false);
    expect(httpStatusOf(new Error('plain'))).toBeUndefined();
  });

  it('recognises modern errors in 4xx bodies and reads the supported versions of -32022', () => {
    const refused = httpError(400, {
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28', 7], requested: '2030-01-01' },
    });
    expect(isModernServerError(refused)).toBe(true);
    expect(isTransportLevelFailure(refused)).toBe(false);
    expect(supportedVersionsOf(refused)).toEqual(['2026-07-28']);
    expect(supportedVersionsOf(new McpError(ErrorCode.InvalidParams, 'x'))).toBeUndefined();
    expect(wireErrorOf(new ConnectionClosedError())).toBeUndefined();
  });
});

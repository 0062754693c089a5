import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError, parseMessage, validateMessage } from '@x/protocol';

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof McpError ? error.code : undefined;
  }
  return undefined;
}

describe('envelope validation', () => {
  it('accepts the four message kinds', () => {
    expect(validateMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
    });
    expect(validateMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeTruthy();
    expect(validateMessage({ jsonrpc: '2.0', id: 'a', result: {} })).toBeTruthy();
    expect(validateMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } })).toBeTruthy();
  });

  it('rejects non-JSON with a parse error and bad envelopes with invalid request', () => {
    expect(codeOf(() => parseMessage('{nope'))).toBe(ErrorCode.ParseError);
    expect(codeOf(() => parseMessage('[1]'))).toBe(ErrorCode.InvalidRequest);
    expect(codeOf(() => validateMessage({ jsonrpc: '1.0', id: 1, method: 'x' }))).toBe(
      ErrorCode.InvalidRequest,
    );
    expect(codeOf(() => validateMessage({ jsonrpc: '2.0', id: {}, method: 'x' }))).toBe(
      ErrorCode.InvalidRequest,
    );
    expect(codeOf(() => validateMessage({ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }))).toBe(
      ErrorCode.InvalidRequest,
    );
    expect(codeOf(() => validateMessage({ jsonrpc: '2.0', id: 1, result: 3 }))).toBe(
      ErrorCode.InvalidRequest,
    );
  });

  it('keeps the id of a malformed request so it can be answered', () => {
    try {
      validateMessage({ jsonrpc: '2.0', id: 7, method: 5 });
      expect.unreachable();
    } catch (error) {
      expect((error as McpError).data).toEqual({ id: 7 });
    }
  });
});

describe('eras', () => {
  it('classifies known, future and malformed revision strings', async () => {
    const { eraOf } = await import('@x/protocol');
    expect(eraOf('2026-07-28')).toBe('modern');
    expect(eraOf('2025-11-25')).toBe('legacy');
    expect(eraOf('2027-01-01')).toBe('modern');
    expect(eraOf('foo')).toBe('legacy');
    expect(eraOf('2024-01-01')).toBe('legacy');
  });
});

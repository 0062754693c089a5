import { describe, expect, it } from 'vitest';
import { defaultMessagePriority, PRIORITY_META_KEY, PRIORITY_RANK } from '../src/message-priority.js';

describe('defaultMessagePriority', () => {
  it('puts cancellation, ping, the handshake and task cancellation in the urgent class', () => {
    expect(
      defaultMessagePriority({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    ).toBe('urgent');
    expect(defaultMessagePriority({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe('urgent');
    expect(defaultMessagePriority({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toBe(
      'urgent',
    );
    expect(defaultMessagePriority({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe('urgent');
    expect(
      defaultMessagePriority({ jsonrpc: '2.0', id: 2, method: 'tasks/cancel', params: { taskId: 't' } }),
    ).toBe('urgent');
  });

  it('puts progress, logging and list changes in the bulk class', () => {
    expect(
      defaultMessagePriority({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 1, progress: 1 },
      }),
    ).toBe('bulk');
    expect(
      defaultMessagePriority({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 1 },
      }),
    ).toBe('bulk');
    expect(defaultMessagePriority({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })).toBe(
      'bulk',
    );
  });

  it('makes error answers urgent and results and other requests normal', () => {
    expect(defaultMessagePriority({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'nope' } })).toBe(
      'urgent',
    );
    expect(defaultMessagePriority({ jsonrpc: '2.0', id: 3, result: {} })).toBe('normal');
    expect(
      defaultMessagePriority({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x' } }),
    ).toBe('normal');
    expect(
      defaultMessagePriority({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'a' },
      }),
    ).toBe('normal');
  });

  it('lets _meta name the class, and ignores a value that is not one', () => {
    const call = (value: unknown) =>
      defaultMessagePriority({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'x', _meta: { [PRIORITY_META_KEY]: value } },
      });
    expect(call('bulk')).toBe('bulk');
    expect(call('urgent')).toBe('urgent');
    expect(call('critical')).toBe('normal');
    expect(call(0)).toBe('normal');
  });

  it('ranks urgent before normal before bulk', () => {
    expect(PRIORITY_RANK.urgent).toBeLessThan(PRIORITY_RANK.normal);
    expect(PRIORITY_RANK.normal).toBeLessThan(PRIORITY_RANK.bulk);
  });
});

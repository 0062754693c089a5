import {
  DEFAULT_MAX_CONNECTED_SESSIONS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFERED_BYTES,
} from '@x/protocol/http';
import * as sse from '@x/transport-sse';
import * as stdio from '@x/transport-stdio';
import * as streamable from '@x/transport-streamable-http';
import * as ws from '@x/transport-ws';
import * as wsNode from '@x/transport-ws/node';
import { describe, expect, it } from 'vitest';

// Issue #36: the same limit has the same default on every transport; the package-level names are
// deprecated aliases of the shared constants and must not drift from them.
describe('shared limit defaults', () => {
  it('every transport takes the incoming-message default from one constant', () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(4 * 1024 * 1024);
    expect(sse.DEFAULT_MAX_MESSAGE_BYTES).toBe(DEFAULT_MAX_MESSAGE_BYTES);
    expect(ws.DEFAULT_MAX_MESSAGE_BYTES).toBe(DEFAULT_MAX_MESSAGE_BYTES);
    expect(streamable.DEFAULT_MAX_MESSAGE_BYTES).toBe(DEFAULT_MAX_MESSAGE_BYTES);
  });

  it('connected sessions (SSE, WebSocket) share one cap; Streamable HTTP sessions another', () => {
    expect(sse.DEFAULT_MAX_SESSIONS).toBe(DEFAULT_MAX_CONNECTED_SESSIONS);
    expect(wsNode.DEFAULT_MAX_SESSIONS).toBe(DEFAULT_MAX_CONNECTED_SESSIONS);
    expect(streamable.DEFAULT_MAX_SESSIONS).toBe(DEFAULT_MAX_SESSIONS);
  });

  it('event streams share one buffered-bytes default and send queues one queued-bytes default', () => {
    expect(sse.DEFAULT_MAX_BUFFERED_BYTES).toBe(DEFAULT_MAX_STREAM_BUFFERED_BYTES);
    expect(streamable.DEFAULT_MAX_BUFFERED_BYTES).toBe(DEFAULT_MAX_STREAM_BUFFERED_BYTES);
    expect(ws.DEFAULT_MAX_QUEUED_BYTES).toBe(DEFAULT_MAX_QUEUED_BYTES);
    expect(stdio.DEFAULT_MAX_QUEUED_BYTES).toBe(DEFAULT_MAX_QUEUED_BYTES);
  });

  it('the Streamable HTTP handler names every default it has, matching SSE where the option is the same', () => {
    expect(streamable.DEFAULT_MAX_QUEUED_MESSAGES).toBe(1_000);
    expect(streamable.DEFAULT_RETRY_INTERVAL_MS).toBe(1_000);
    expect(streamable.DEFAULT_DRAIN_TIMEOUT_MS).toBe(30_000);
    expect(streamable.DEFAULT_DRAIN_RETRY_AFTER_SECONDS).toBe(1);
    expect(streamable.DEFAULT_SESSION_IDLE_TIMEOUT_MS).toBe(sse.DEFAULT_SESSION_IDLE_TIMEOUT_MS);
    expect(streamable.DEFAULT_SSE_KEEP_ALIVE_MS).toBe(sse.DEFAULT_KEEP_ALIVE_MS);
  });
});

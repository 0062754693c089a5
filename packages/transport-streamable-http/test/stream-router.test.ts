import type { JSONRPCMessage } from '@x/protocol/core';
import { toPlatformResponse } from '@x/protocol/http';
import { describe, expect, it } from 'vitest';
import { StreamRouter } from '../src/server/legacy/stream-router.js';
import { SseWriter } from '../src/server/sse-writer.js';
import { sseMessages } from './helpers.js';

const progress = (token: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: 1 },
});
const elicit: JSONRPCMessage = { jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: {} };

function router(json = false): StreamRouter {
  return new StreamRouter({ tag: 't', json, maxQueued: 10 });
}

describe('StreamRouter', () => {
  it('sends a response to the POST stream of its request, once, and nothing for a request it never saw', () => {
    const streams = router();
    const first = streams.open([1, 2], false, {});
    const second = streams.open([3], false, {});
    expect(first.streamId).toBe('t.0');
    expect(second.streamId).toBe('t.1');
    expect(streams.inFlight).toBe(3);
    expect(streams.takeResponseChannel(3)).toBe(second);
    expect(streams.takeResponseChannel(1)).toBe(first);
    expect(streams.inFlight).toBe(1);
    // Taken: a second response to the same request has nowhere to go.
    expect(streams.takeResponseChannel(1)).toBeUndefined();
    expect(streams.takeResponseChannel(99)).toBeUndefined();
    expect(streams.takeResponseChannel(null)).toBeUndefined();
  });

  it('sends a related message to its request’s SSE stream, everything else to the GET stream', () => {
    const streams = router();
    expect(streams.standaloneIfMade).toBeUndefined();
    const post = streams.open([1], false, {});
    expect(streams.route(progress(1), 1)).toBe(post);
    expect(streams.route(elicit, 1)).toBe(post);
    const unrelated = streams.route(progress(2), undefined);
    expect(unrelated).toBe(streams.standalone);
    expect(streams.isStandalone(unrelated)).toBe(true);
    expect(unrelated?.streamId).toBe('t.g');
    // Once the request is answered its stream is gone: later related messages take the GET stream.
    streams.takeResponseChannel(1);
    expect(streams.route(progress(1), 1)).toBe(streams.standalone);
  });

  it('on a JSON reply, sends a related request to the GET stream and drops a related notification', () => {
    const streams = router(true);
    const post = streams.open([1], false, {});
    expect(post.json).toBe(true);
    expect(streams.route(elicit, 1)).toBe(streams.standalone);
    expect(streams.route(progress(1), 1)).toBeUndefined();
  });

  it('refuses a lone request whose id is in flight, and leaves batch duplicates out with a -32600 each', () => {
    const streams = router();
    streams.open([1], false, {});
    const again: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(streams.screen([again], false, [])).toBeUndefined();

    const fresh: JSONRPCMessage = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const twice: JSONRPCMessage = { jsonrpc: '2.0', id: 2, method: 'prompts/list' };
    const screened = streams.screen([again, fresh, twice], true, []);
    expect(screened?.messages).toEqual([fresh]);
    expect(screened?.requestIds).toEqual([2]);
    expect(screened?.errors.map((error) => [error.id, error.error.code])).toEqual([
      [1, -32600],
      [2, -32600],
    ]);
  });

  it('ends the POST stream of a request the client cancels, and forgets the request', async () => {
    const streams = router();
    const channel = streams.open([5], false, {});
    const writer = new SseWriter();
    channel.attach(writer);
    streams.markResumable(channel);
    expect(streams.channel('t.0')).toBe(channel);
    const cancel: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5 },
    };
    const screened = streams.screen([cancel], false, []);
    // The notification itself still goes to the server, which stops the work.
    expect(screened?.messages).toEqual([cancel]);
    expect(streams.inFlight).toBe(0);
    expect(channel.finished).toBe(true);
    expect(writer.closed).toBe(true);
    expect(streams.channel('t.0')).toBeUndefined();
  });

  it('keeps a resumable POST stream until its last request is settled, and owns only its own stream ids', () => {
    const streams = router();
    const channel = streams.open([1, 2], true, {});
    streams.markResumable(channel);
    expect(streams.resumable()).toEqual([streams.standalone, channel]);
    streams.settle(channel, 1);
    expect(streams.channel('t.0')).toBe(channel);
    streams.settle(channel, 2);
    expect(channel.finished).toBe(true);
    expect(streams.channel('t.0')).toBeUndefined();
    expect(streams.channel('t.g')).toBe(streams.standalone);
    expect(streams.owns('t.0')).toBe(true);
    expect(streams.owns('t.g')).toBe(true);
    expect(streams.owns('t2.0')).toBe(false);
    expect(streams.owns('other.0')).toBe(false);
  });

  it('holds GET stream messages (bounded) while no connection is attached, and ends every stream at once', async () => {
    const streams = new StreamRouter({ tag: 't', json: false, maxQueued: 2 });
    for (const token of [1, 2, 3]) streams.route(progress(token), undefined)?.write(progress(token));
    expect(streams.hasOpenStream).toBe(false);
    const writer = new SseWriter();
    streams.standalone.attach(writer);
    expect(streams.hasOpenStream).toBe(true);
    const json = new StreamRouter({ tag: 'j', json: true, maxQueued: 2 });
    const pending = json.open([1], false, { 'mcp-session-id': 'sid' });

    streams.finishAll();
    json.finishAll();
    expect(writer.closed).toBe(true);
    expect(streams.hasOpenStream).toBe(false);
    // The oldest was dropped first.
    expect(sseMessages(await new Response(writer.stream).text())).toEqual([progress(2), progress(3)]);
    // A JSON reply still owed goes out empty (202) rather than never.
    const reply = toPlatformResponse(await pending.jsonResponse());
    expect(reply.status).toBe(202);
    expect(reply.headers.get('mcp-session-id')).toBe('sid');
  });
});

import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { NodeIncoming, toNodeHandler } from '../../src/node/index.js';

function incoming(): { view: NodeIncoming; res: EventEmitter & { writableFinished: boolean } } {
  const req = { method: 'POST', url: '/mcp', headers: { host: '127.0.0.1:1' }, socket: {} };
  const res = Object.assign(new EventEmitter(), { writableFinished: false });
  return { view: new NodeIncoming(req as unknown as IncomingMessage, res as unknown as ServerResponse), res };
}

async function serve(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; [Symbol.asyncDispose](): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function post(port: number, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/x',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('NodeIncoming (the one Node request adapter of both HTTP transports)', () => {
  it('tells listeners and the signal once, whether the signal was asked for before or after', () => {
    const early = incoming();
    const calls: string[] = [];
    early.view.onDisconnect(() => calls.push('first'));
    const signal = early.view.signal;
    early.view.onDisconnect(() => calls.push('second'));
    expect([early.view.gone, signal.aborted]).toEqual([false, false]);
    early.res.emit('close');
    early.res.emit('close');
    expect(calls).toEqual(['first', 'second']);
    expect([early.view.gone, signal.aborted]).toEqual([true, true]);

    const late = incoming();
    late.view.onDisconnect(() => {});
    late.res.emit('close');
    expect([late.view.gone, late.view.signal.aborted]).toEqual([true, true]);
    let told = false;
    late.view.onDisconnect(() => {
      told = true;
    });
    expect(told).toBe(true);
  });

  it('headerRecord(): a null-prototype record of every header, lists joined, pseudo-headers left out, as headers.forEach sees them', () => {
    const headers = {
      host: '127.0.0.1:1',
      'set-cookie': ['a=1', 'b=2'],
      constructor: 'c',
      ':authority': '127.0.0.1:1',
      'x-absent': undefined,
    };
    const req = { method: 'POST', url: '/mcp', headers, socket: {} };
    const view = new NodeIncoming(req as unknown as IncomingMessage, new EventEmitter() as ServerResponse);
    const record = view.headerRecord();
    expect(Object.getPrototypeOf(record)).toBeNull();
    expect({ ...record }).toEqual({ host: '127.0.0.1:1', 'set-cookie': 'a=1, b=2', constructor: 'c' });
    const seen: Record<string, string> = {};
    view.headers.forEach((value, name) => {
      seen[name] = value;
    });
    expect(seen).toEqual({ ...record });
  });

  it('a response sent in full is no disconnect', () => {
    const done = incoming();
    let told = false;
    done.view.onDisconnect(() => {
      told = true;
    });
    done.res.writableFinished = true;
    done.res.emit('close');
    expect(told).toBe(false);
  });

  it('reads a parsed req.body (object, text, bytes) only when the framework consumed the stream', async () => {
    const seen: string[] = [];
    const bodies: unknown[] = [{ a: 1 }, '{"b":2}', new TextEncoder().encode('{"c":3}')];
    let next = 0;
    await using http = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        (req as { body?: unknown }).body = bodies[next++];
        void new NodeIncoming(req, res).readText(1024).then((text) => {
          seen.push(text);
          res.end();
        });
      });
    });
    for (let i = 0; i < bodies.length; i++) await post(http.port, 'ignored');
    expect(seen).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('reads the stream when req.body is set but the stream was not read (body-parser 1.x skipping a type)', async () => {
    let text = '';
    await using http = await serve((req, res) => {
      (req as { body?: unknown }).body = {};
      void new NodeIncoming(req, res).readText(1024).then((read) => {
        text = read;
        res.end();
      });
    });
    await post(http.port, '{"real":true}');
    expect(text).toBe('{"real":true}');
  });
});

describe('toNodeHandler of @x/protocol/node (any Web handler)', () => {
  it('serves a Web handler with the socket addresses, and answers a thrown handler with a JSON-RPC 500', async () => {
    let info: unknown;
    const handler = async (request: Request, connection?: unknown): Promise<Response> => {
      info = connection;
      const body = await request.text();
      if (body === 'boom') throw new Error('boom');
      return new Response(`echo ${body}`, { status: 201 });
    };
    await using http = await serve(toNodeHandler(handler));
    expect(await post(http.port, 'hi')).toEqual({ status: 201, body: 'echo hi' });
    expect(info).toMatchObject({ localAddress: '127.0.0.1', remoteAddress: '127.0.0.1' });
    const failed = await post(http.port, 'boom');
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32603 } });
  });
});

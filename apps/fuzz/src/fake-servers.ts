import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { answer } from './fake-server-core.js';
import type { Host } from './hosts.js';

async function listenHttp(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  path: string,
): Promise<Host> {
  const sockets = new Set<Socket>();
  const http = createServer(handler);
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}${path}`),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', () => resolve(body));
  });
}

/** A hostile WebSocket MCP server: each reply frame is one text frame. */
export async function hostileWebSocketServer(): Promise<Host> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'mcp' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      for (const frame of answer(String(data)).frames) socket.send(frame);
    });
    socket.on('error', () => undefined);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`ws://127.0.0.1:${port}/`),
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A hostile Streamable HTTP server (legacy era): JSON or SSE bodies, error statuses, cut connections. */
export function hostileStreamableHttpServer(): Promise<Host> {
  return listenHttp((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    void readBody(req).then((body) => {
      const { frames, plan } = answer(body);
      if (frames.length === 0 && plan === undefined) {
        res.writeHead(202).end();
        return;
      }
      const headers = { 'mcp-session-id': 'hostile-session' };
      switch (plan?.http ?? 'json') {
        case 'destroy':
          req.socket.destroy();
          return;
        case 'status':
          res
            .writeHead(plan?.status ?? 500, { ...headers, 'content-type': 'application/json' })
            .end(frames[0] ?? '');
          return;
        case 'sse':
          res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
          for (const frame of frames) res.write(`event: message\ndata: ${frame}\n\n`);
          res.end();
          return;
        default:
          if (frames.length === 0) {
            res.writeHead(202, headers).end();
            return;
          }
          res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(frames[0]);
      }
    });
  }, '/mcp');
}

/** A hostile legacy HTTP+SSE server: the endpoint event, then every reply frame as a message event. */
export function hostileSseServer(): Promise<Host> {
  let stream: ServerResponse | undefined;
  return listenHttp((req, res) => {
    if (req.method === 'GET') {
      stream = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages?sessionId=hostile\n\n');
      return;
    }
    void readBody(req).then((body) => {
      const { frames } = answer(body);
      res.writeHead(202).end();
      for (const frame of frames) stream?.write(`event: message\ndata: ${frame}\n\n`);
    });
  }, '/sse');
}

import { Agent, request } from 'undici';
import type { BenchSession, ServerTarget } from '../types.js';
import { rawBig, rawEcho, rawHandshake, RpcClient, type RawResponse } from './rpc-client.js';

const agent = new Agent({ keepAliveTimeout: 30_000 });

/** Raw legacy HTTP+SSE client: a GET event stream for replies, one POST per message. */
export async function connectRawLegacySse(target: ServerTarget): Promise<BenchSession> {
  const origin = `http://127.0.0.1:${target.port}`;
  const stream = await request(`${origin}/sse`, {
    method: 'GET',
    headers: { accept: 'text/event-stream' },
    dispatcher: agent,
  });
  let resolveEndpoint: (path: string) => void = () => {};
  const endpoint = new Promise<string>((resolve) => {
    resolveEndpoint = resolve;
  });
  const rpc: RpcClient = new RpcClient((message) => {
    endpoint
      .then(async (path) => {
        const response = await request(`${origin}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(message),
          dispatcher: agent,
        });
        await response.body.dump();
      })
      // A POST still in flight when the session closes (e.g. `initialized` in W4) may be reset; a
      // request that fails this way rejects instead of crashing the cell with an unhandled rejection.
      .catch((error: unknown) => {
        const id = (message as { id?: number }).id;
        if (id !== undefined) rpc.deliver({ id, error: { message: String(error) } });
      });
  });

  let buffered = '';
  stream.body.setEncoding('utf8');
  stream.body.on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = event.slice(event.indexOf('data: ') + 6);
      if (event.startsWith('event: endpoint')) resolveEndpoint(data);
      else rpc.deliver(JSON.parse(data) as RawResponse);
      end = buffered.indexOf('\n\n');
    }
  });
  stream.body.on('error', () => {});

  await rawHandshake(rpc);
  return {
    echo: () => rawEcho(rpc),
    big: () => rawBig(rpc),
    close: async () => {
      stream.body.destroy();
    },
  };
}

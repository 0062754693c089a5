import { Agent, request } from 'undici';
import { bigParams, echoParams, INITIALIZE_PARAMS, LEGACY_VERSION } from '../../payload.js';
import type { BenchSession, ServerTarget } from '../types.js';
import { bigLength, checkEcho } from './rpc-client.js';

/** One keep-alive pool per client process, as a real client would hold. */
const agent = new Agent({ keepAliveTimeout: 30_000 });

/**
 * Raw Streamable-HTTP-shaped client on undici's `request`: each JSON-RPC request is a POST whose
 * answer is the response body (JSON, or the `data:` line of an SSE body).
 */
export async function connectRawStreamableHttp(target: ServerTarget): Promise<BenchSession> {
  const url = `http://127.0.0.1:${target.port}/mcp`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  let nextId = 0;

  async function post(message: object): Promise<unknown> {
    const response = await request(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
      dispatcher: agent,
    });
    const sessionId = response.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      headers['mcp-session-id'] = sessionId;
      headers['mcp-protocol-version'] = LEGACY_VERSION;
    }
    if (response.statusCode === 202) {
      await response.body.dump();
      return undefined;
    }
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
    const text = await response.body.text();
    const json = text.startsWith('{')
      ? text
      : text.slice(text.indexOf('data: ') + 6, text.lastIndexOf('}') + 1);
    return (JSON.parse(json) as { result?: unknown }).result;
  }

  const call = (method: string, params: object): Promise<unknown> =>
    post({ jsonrpc: '2.0', id: ++nextId, method, params });

  await call('initialize', INITIALIZE_PARAMS);
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    echo: async () => checkEcho(await call('tools/call', echoParams())),
    big: async () => bigLength(await call('tools/call', bigParams())),
    close: async () => {
      const response = await request(url, { method: 'DELETE', headers, dispatcher: agent });
      await response.body.dump();
    },
  };
}

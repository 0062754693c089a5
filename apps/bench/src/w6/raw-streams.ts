import { W6_AGENT_OPTIONS } from './agent-options.js';
import { Agent, request } from 'undici';
import { INITIALIZE_PARAMS, LEGACY_VERSION } from '../payload.js';

/** The load process's connection pool for the raw streams. */
const agent = new Agent(W6_AGENT_OPTIONS);

const MODERN_VERSION = '2026-07-28';

/** A held stream: its body is kept readable (and referenced) until the process exits. */
export interface HeldStream {
  body: NodeJS.ReadableStream;
}

/**
 * The raw reference's legacy Streamable HTTP session with its GET stream: POST `initialize`, POST
 * `notifications/initialized`, GET with the session id; resolves once the GET's headers (200) arrived.
 */
export async function openRawGetStream(port: number): Promise<HeldStream> {
  const url = `http://127.0.0.1:${port}/mcp`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const post = async (message: object): Promise<void> => {
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
    await response.body.dump();
    if (response.statusCode >= 300) throw new Error(`POST: HTTP ${response.statusCode}`);
  };
  await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const { 'content-type': _contentType, ...getHeaders } = headers;
  const stream = await request(url, {
    method: 'GET',
    headers: { ...getHeaders, accept: 'text/event-stream' },
    dispatcher: agent,
  });
  if (stream.statusCode !== 200) throw new Error(`GET: HTTP ${stream.statusCode}`);
  stream.body.on('error', () => {});
  return { body: stream.body };
}

/**
 * A raw 2026-07-28 `subscriptions/listen` stream: one POST, no session; resolves once the
 * acknowledgement (the stream's first event) arrived.
 */
export async function openRawListenStream(port: number, id: number): Promise<HeldStream> {
  const response = await request(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION },
      },
    }),
    dispatcher: agent,
  });
  if (response.statusCode !== 200) throw new Error(`listen: HTTP ${response.statusCode}`);
  const body = response.body;
  body.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    body.once('data', () => resolve());
    body.once('end', () => reject(new Error('listen stream ended before its acknowledgement')));
  });
  return { body };
}

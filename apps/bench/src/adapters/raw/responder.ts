import { BIG_TOOL, bigText, ECHO_TOOL, INITIALIZE_RESULT } from '../../payload.js';

interface IncomingMessage {
  id?: number | string;
  method?: string;
  params?: { name?: string; arguments?: { text?: unknown } };
}

/**
 * The raw reference server: answers the benchmark's methods with the same JSON an MCP server sends,
 * without any MCP machinery. Returns undefined for notifications.
 */
export function respond(message: unknown): object | undefined {
  const request = message as IncomingMessage;
  if (request.id === undefined) return undefined;
  return { jsonrpc: '2.0', id: request.id, result: resultOf(request) };
}

function resultOf(request: IncomingMessage): object {
  if (request.method === 'initialize') return INITIALIZE_RESULT;
  if (request.method === 'tools/call') {
    if (request.params?.name === BIG_TOOL) return { content: [{ type: 'text', text: bigText() }] };
    if (request.params?.name === ECHO_TOOL) {
      return { content: [{ type: 'text', text: String(request.params.arguments?.text) }] };
    }
  }
  return {};
}

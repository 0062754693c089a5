import { ErrorCode } from '../errors.js';
import { jsonRpcErrorText } from './json-rpc-error-response.js';

/** The parts of Node's `IncomingMessage`/`ServerResponse` this check looks at (no `node:` import). */
interface NodeLike {
  socket?: unknown;
  headers?: unknown;
  writeHead?: unknown;
  end?: unknown;
}

function isNodeRequest(value: unknown): boolean {
  const candidate = value as NodeLike | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.socket === 'object' &&
    typeof candidate.headers === 'object' &&
    !(candidate.headers instanceof Headers)
  );
}

/**
 * Fails fast when a Web-standard handler is called with something that is not a Web `Request`. The
 * common case is Node's `(req, res)`, from `http.createServer(handler)`: without this check the handler
 * reads properties `IncomingMessage` does not have and the request hangs. Here the client gets a 500
 * that says what to do, and the handler throws a `TypeError` naming the Node adapter to use.
 *
 * @example
 * ```ts
 * const handler = async (request: Request, info?: ConnectionInfo): Promise<Response> => {
 *   assertWebRequest(request, info, '@x/transport-streamable-http/node');
 *   return new Response('ok');
 * };
 * ```
 */
export function assertWebRequest(request: unknown, second: unknown, nodeEntry: string): void {
  if (request instanceof Request) return;
  if (isNodeRequest(request)) {
    const message =
      `This is a Web-standard handler (request: Request) => Promise<Response>, but it was called with ` +
      `Node's (req, res): mount it with toNodeHandler from '${nodeEntry}', e.g. ` +
      `http.createServer(toNodeHandler(handler))`;
    const res = second as NodeLike | null;
    if (typeof res === 'object' && res !== null && typeof res.writeHead === 'function') {
      const body = jsonRpcErrorText(ErrorCode.InternalError, `Server misconfigured: ${message}`);
      (res.writeHead as (status: number, headers: Record<string, string>) => void).call(res, 500, {
        'content-type': 'application/json',
      });
      (res.end as (body: string) => void).call(res, body);
    }
    throw new TypeError(message);
  }
  throw new TypeError(`Expected a Web Request, got ${request === null ? 'null' : typeof request}`);
}

/// <reference types="node" />
// The build compiles @x/protocol without Node types (`types: []`); only this Node-only subpath loads them.
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import { jsonRpcErrorText } from '../http/json-rpc-error-response.js';

/**
 * Answers a `node:http` request with a JSON-RPC error body without an id, as every transport-level
 * refusal of the servers (nothing when the head already left).
 *
 * @example
 * ```ts
 * sendJsonRpcError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: no URL');
 * ```
 */
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  const body = jsonRpcErrorText(code, message);
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    })
    .end(body);
}

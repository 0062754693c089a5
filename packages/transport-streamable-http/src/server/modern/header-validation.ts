import { ErrorCode, type JSONRPCMessage, McpError } from '@x/protocol/core';
import { HEADER, META_PROTOCOL_VERSION, NAME_SOURCE, PARAM_HEADER_PREFIX } from '../../shared/headers.js';
import { decodeHeaderValue } from '../../shared/header-value.js';
import { argumentAt, type ParamHeader, paramValueString } from '../../shared/param-headers.js';
import type { HeaderReader } from '@x/protocol/http';

function mismatch(message: string): McpError {
  return new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
}

function params(message: JSONRPCMessage): Record<string, unknown> | undefined {
  return 'params' in message ? message.params : undefined;
}

/** The `_meta` protocol version of a message, when it carries one. */
export function metaProtocolVersion(message: JSONRPCMessage): unknown {
  const meta = params(message)?.['_meta'];
  return typeof meta === 'object' && meta !== null
    ? (meta as Record<string, unknown>)[META_PROTOCOL_VERSION]
    : undefined;
}

/**
 * Checks the headers a modern POST mirrors from its body (2026-07-28 streamable-http, "Server
 * Validation"): `MCP-Protocol-Version` equals `_meta` `io.modelcontextprotocol/protocolVersion`,
 * `Mcp-Method` equals `method`, `Mcp-Name` equals `params.name`/`params.uri` (after Base64-sentinel
 * decoding), and every `Mcp-Param-*` the tool declares equals its argument. Throws
 * `McpError(HeaderMismatch)` (-32020), answered with 400.
 *
 * Notifications: "header requirements for notification POSTs are not defined by this revision", so
 * only headers that are present are compared.
 */
export function validateModernHeaders(
  headers: HeaderReader,
  message: JSONRPCMessage,
  paramHeaders: ((toolName: string) => readonly ParamHeader[] | undefined) | undefined,
): void {
  if (!('method' in message)) return;
  const isRequest = 'id' in message;
  const version = headers.get(HEADER.protocolVersion);
  if (version === null) throw mismatch('required header MCP-Protocol-Version is missing');
  const metaVersion = metaProtocolVersion(message);
  if (isRequest && metaVersion !== version) {
    throw mismatch(
      `MCP-Protocol-Version header '${version}' does not match _meta value '${String(metaVersion)}'`,
    );
  }

  const method = headers.get(HEADER.method);
  if (method === null) {
    if (isRequest) throw mismatch('required header Mcp-Method is missing');
  } else if (method !== message.method) {
    throw mismatch(`Mcp-Method header '${method}' does not match body value '${message.method}'`);
  }

  const source = NAME_SOURCE.get(message.method);
  const nameHeader = headers.get(HEADER.name);
  if (source !== undefined) {
    const bodyValue = params(message)?.[source];
    if (nameHeader === null) {
      if (isRequest) throw mismatch('required header Mcp-Name is missing');
    } else {
      const decoded = decodeHeaderValue(nameHeader);
      if (decoded === undefined) throw mismatch('Mcp-Name header value is malformed');
      if (decoded !== bodyValue) {
        throw mismatch(`Mcp-Name header value '${decoded}' does not match body value '${String(bodyValue)}'`);
      }
    }
  }

  validateParamHeaders(headers, message, paramHeaders);
}

function validateParamHeaders(
  headers: HeaderReader,
  message: JSONRPCMessage & { method: string },
  paramHeaders: ((toolName: string) => readonly ParamHeader[] | undefined) | undefined,
): void {
  const present = new Map<string, string>();
  headers.forEach((value, name) => {
    if (name.startsWith(PARAM_HEADER_PREFIX)) present.set(name.slice(PARAM_HEADER_PREFIX.length), value);
  });
  // "Servers MUST reject requests with a recognized Mcp-Param-{Name} header that contains invalid
  // characters": every present one is checked, declared or not, since decoding is cheap.
  for (const [name, value] of present) {
    if (decodeHeaderValue(value) === undefined) throw mismatch(`Mcp-Param-${name} header value is malformed`);
  }
  if (message.method !== 'tools/call' || paramHeaders === undefined) return;
  const toolName = params(message)?.['name'];
  if (typeof toolName !== 'string') return;
  const declared = paramHeaders(toolName);
  if (declared === undefined) return;
  const args = params(message)?.['arguments'];
  for (const { name, path } of declared) {
    const header = present.get(name.toLowerCase());
    const value = argumentAt(args, path);
    if (value === undefined) {
      if (header !== undefined) throw mismatch(`Mcp-Param-${name} is set but the argument is absent`);
      continue;
    }
    // "Client omits header but value is in body — Server MUST reject the request".
    if (header === undefined) throw mismatch(`required header Mcp-Param-${name} is missing`);
    const decoded = decodeHeaderValue(header) ?? '';
    const expected = paramValueString(value);
    const equal =
      typeof value === 'number'
        ? // "servers SHOULD compare the header value and the body value numerically".
          decoded.trim() !== '' && Number(decoded) === value
        : decoded === expected;
    if (!equal) throw mismatch(`Mcp-Param-${name} header value '${decoded}' does not match body value`);
  }
}

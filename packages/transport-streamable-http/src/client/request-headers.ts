import { eraOf, type JSONRPCMessage } from '@x/protocol/core';
import { encodeHeaderValue } from '../shared/header-value.js';
import { HEADER, META_PROTOCOL_VERSION, NAME_SOURCE } from '../shared/headers.js';
import { argumentAt, type ParamHeader, paramHeadersOf, paramValueString } from '../shared/param-headers.js';

function paramsOf(message: JSONRPCMessage): Record<string, unknown> | undefined {
  return 'params' in message ? message.params : undefined;
}

/** The modern protocol version a message declares in `_meta`, if it declares one. */
export function modernVersionOf(message: JSONRPCMessage): string | undefined {
  const meta = paramsOf(message)?.['_meta'];
  if (typeof meta !== 'object' || meta === null) return undefined;
  const version = (meta as Record<string, unknown>)[META_PROTOCOL_VERSION];
  return typeof version === 'string' && eraOf(version) === 'modern' ? version : undefined;
}

/**
 * Remembers the `x-mcp-header` annotations of tools seen in `tools/list` results, so `tools/call`
 * requests carry their `Mcp-Param-*` headers ("clients MUST support this feature").
 */
export class ToolParamHeaders {
  #byTool = new Map<string, readonly ParamHeader[]>();

  /** Reads a `tools/list` result; a tool with invalid annotations is skipped (and its name returned). */
  learn(result: Record<string, unknown>): string[] {
    const rejected: string[] = [];
    const tools = result['tools'];
    if (!Array.isArray(tools)) return rejected;
    for (const tool of tools as Array<Record<string, unknown>>) {
      const name = tool?.['name'];
      if (typeof name !== 'string') continue;
      try {
        const headers = paramHeadersOf(tool['inputSchema']);
        if (headers.length > 0) this.#byTool.set(name, headers);
        else this.#byTool.delete(name);
      } catch {
        this.#byTool.delete(name);
        rejected.push(name);
      }
    }
    return rejected;
  }

  get(toolName: string): readonly ParamHeader[] | undefined {
    return this.#byTool.get(toolName);
  }
}

/**
 * Adds the request metadata headers of 2026-07-28 streamable-http ("Standard Request Headers", "Custom
 * Headers from Tool Parameters"): `MCP-Protocol-Version` equal to the `_meta` version, `Mcp-Method`,
 * `Mcp-Name` for `tools/call`/`prompts/get` (name), `resources/read` (uri) and `tasks/get|update|cancel`
 * (taskId, SEP-2663), and `Mcp-Param-*`, each
 * encoded with the Base64 sentinel where the value is not header-safe.
 */
export function addModernHeaders(
  headers: Record<string, string>,
  message: JSONRPCMessage & { method: string },
  version: string,
  tools: ToolParamHeaders,
): void {
  headers[HEADER.protocolVersion] = version;
  headers[HEADER.method] = message.method;
  const params = paramsOf(message);
  const source = NAME_SOURCE.get(message.method);
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === 'string') headers[HEADER.name] = encodeHeaderValue(name);
  if (message.method !== 'tools/call' || typeof name !== 'string') return;
  const declared = tools.get(name);
  if (declared === undefined) return;
  const args = params?.['arguments'];
  for (const { name: header, path } of declared) {
    const value = paramValueString(argumentAt(args, path));
    if (value !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(value);
  }
}

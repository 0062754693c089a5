/**
 * A request as a retry policy sees it.
 *
 * @example
 * ```ts
 * const request: RetryRequest = { method: 'tools/call', params: { name: 'search', arguments: { q: 'mcp' } } };
 * ```
 */
export interface RetryRequest {
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
}

/** Requests whose repetition changes nothing on the server: reads, lists, `ping`, completions. */
const SAFE_METHODS: ReadonlySet<string> = new Set([
  'ping',
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'tasks/list',
  'resources/read',
  'prompts/get',
  'completion/complete',
]);

/**
 * The default `isRepeatable`: the safe methods above, and `tools/call` when `toolHint` says the tool was
 * listed with `readOnlyHint` or `idempotentHint` (server/tools, "Tool Annotations": a repeated call
 * with the same arguments has no additional effect). Hints come from an untrusted server; a client
 * that does not trust it passes its own `isRepeatable`.
 *
 * @example
 * ```ts
 * isSafeToRepeat({ method: 'resources/read', params: { uri: 'file:///a' } }, false); // true
 * isSafeToRepeat({ method: 'tools/call', params: { name: 'delete' } }, false); // false
 * ```
 */
export function isSafeToRepeat(request: RetryRequest, toolHint: boolean): boolean {
  if (request.method === 'tools/call') return toolHint;
  return SAFE_METHODS.has(request.method);
}

import type { ServerCapabilities } from '@x/protocol/core';

/**
 * The client requests a translating bridge forwards upstream, by the upstream capability that carries
 * them. Each is answered by the downstream `Server` in the downstream client's era and sent upstream by
 * the `Client` in the upstream's era: the two engines do the translation (DESIGN §4), the bridge only
 * moves params and results. `initialize`, `server/discover`, `ping`, `logging/setLevel`,
 * `resources/(un)subscribe` and `subscriptions/listen` are answered by the downstream `Server` itself.
 */
export const FORWARDED_METHODS = {
  tools: ['tools/list', 'tools/call'],
  resources: ['resources/list', 'resources/templates/list', 'resources/read'],
  prompts: ['prompts/list', 'prompts/get'],
  completions: ['completion/complete'],
} as const satisfies Partial<Record<keyof ServerCapabilities, readonly string[]>>;

/**
 * What the downstream `Server` declares: the upstream's capabilities that the bridge forwards, so a
 * downstream client never sees a feature the bridge would drop.
 */
export function downstreamCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
  const declared: ServerCapabilities = { logging: {} };
  if (upstream === undefined) return declared;
  if (upstream.tools) declared.tools = { listChanged: true };
  if (upstream.prompts) declared.prompts = { listChanged: true };
  if (upstream.resources)
    declared.resources = { listChanged: true, subscribe: upstream.resources.subscribe === true };
  if (upstream.completions) declared.completions = {};
  return declared;
}

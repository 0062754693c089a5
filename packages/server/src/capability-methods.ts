import type { ServerCapabilities } from '@x/protocol/core';

/**
 * Which server capability a client request needs (spec: each feature page, "Capabilities"): a server
 * answers -32601 for a feature it did not declare and refuses to register a handler for it.
 */
const REQUIRED: Record<string, (caps: ServerCapabilities) => boolean> = {
  'tools/list': (c) => c.tools !== undefined,
  'tools/call': (c) => c.tools !== undefined,
  'prompts/list': (c) => c.prompts !== undefined,
  'prompts/get': (c) => c.prompts !== undefined,
  'resources/list': (c) => c.resources !== undefined,
  'resources/templates/list': (c) => c.resources !== undefined,
  'resources/read': (c) => c.resources !== undefined,
  'resources/subscribe': (c) => c.resources?.subscribe === true,
  'resources/unsubscribe': (c) => c.resources?.subscribe === true,
  'logging/setLevel': (c) => c.logging !== undefined,
  'completion/complete': (c) => c.completions !== undefined,
};

/** False when `method` belongs to a capability the server did not declare. */
export function isMethodDeclared(method: string, capabilities: ServerCapabilities): boolean {
  // Own properties only: a method named `constructor` must not find Object.prototype's.
  const check = Object.hasOwn(REQUIRED, method) ? REQUIRED[method] : undefined;
  return check === undefined || check(capabilities);
}

/** The capability name to mention in an error for `method`. */
export function capabilityOf(method: string): string {
  if (method.startsWith('resources/') && method.endsWith('subscribe')) return 'resources.subscribe';
  if (method === 'logging/setLevel') return 'logging';
  if (method === 'completion/complete') return 'completions';
  return method.slice(0, method.indexOf('/'));
}

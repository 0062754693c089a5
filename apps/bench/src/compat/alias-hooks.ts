// The resolve hook of alias-register.ts: `@modelcontextprotocol/sdk[/…]` → the same path of @x/compat,
// resolved from @x/compat's own package.json (a package may import itself by name), so its `exports`
// decide what exists, as for an application aliased with `npm:@x/compat`.
import type { ResolveHook } from 'node:module';

const compat = new URL('../../../../packages/compat/package.json', import.meta.url).href;

export const resolve: ResolveHook = (specifier, context, nextResolve) => {
  if (specifier !== '@modelcontextprotocol/sdk' && !specifier.startsWith('@modelcontextprotocol/sdk/')) {
    return nextResolve(specifier, context);
  }
  return nextResolve(specifier.replace('@modelcontextprotocol/sdk', '@x/compat'), {
    ...context,
    parentURL: compat,
  });
};

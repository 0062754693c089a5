import type { ListResourcesResult } from '@x/protocol/core';
import type { ServerContext } from '../server-context.js';
import { UriTemplate } from '../uri-template.js';

/**
 * Suggests values for one argument (spec: server/utilities/completion).
 *
 * @example
 * ```ts
 * // Completes `repo` from the `owner` the user already filled in.
 * const completeRepo: CompleteCallback = (value, { arguments: args }) =>
 *   (repos.get(args?.['owner'] ?? '') ?? []).filter((name) => name.startsWith(value));
 * const template = new ResourceTemplate('github://{owner}/{repo}', { complete: { repo: completeRepo } });
 * ```
 */
export type CompleteCallback = (
  value: string,
  context: { arguments?: Record<string, string> | undefined },
) => string[] | Promise<string[]>;

/**
 * The completer registered for `name`, read as an own property only: the name comes from the wire, and
 * `constructor` or `__proto__` must find nothing rather than `Object.prototype`'s members.
 */
export function ownCompleter(
  completers: Readonly<Record<string, CompleteCallback>> | undefined,
  name: string,
): CompleteCallback | undefined {
  return completers !== undefined && Object.hasOwn(completers, name) ? completers[name] : undefined;
}

/**
 * Lists the concrete resources a template currently stands for (they join `resources/list`).
 *
 * @example
 * ```ts
 * const list: ListResourcesCallback = () => ({
 *   resources: [...users].map(([id, user]) => ({ uri: `users://${id}`, name: user.name })),
 * });
 * const template = new ResourceTemplate('users://{id}', { list });
 * ```
 */
export type ListResourcesCallback = (
  ctx: ServerContext,
) => Pick<ListResourcesResult, 'resources'> | Promise<Pick<ListResourcesResult, 'resources'>>;

/**
 * An RFC 6570 URI template for `registerResource`, with an optional `list` of its concrete resources
 * and per-variable completion.
 *
 * @example
 * ```ts
 * const users = new ResourceTemplate('users://{id}/profile', {
 *   list: async () => ({ resources: (await db.users()).map((u) => ({ uri: `users://${u.id}/profile`, name: u.name })) }),
 *   complete: { id: (prefix) => db.userIds(prefix) },
 * });
 * server.registerResource('profile', users, { mimeType: 'application/json' }, (uri, { id }) => read(id));
 * ```
 */
export class ResourceTemplate {
  readonly uriTemplate: UriTemplate;
  readonly list: ListResourcesCallback | undefined;
  readonly complete: Readonly<Record<string, CompleteCallback>>;

  constructor(
    template: string,
    options: {
      list?: ListResourcesCallback | undefined;
      complete?: Record<string, CompleteCallback> | undefined;
    } = {},
  ) {
    this.uriTemplate = new UriTemplate(template);
    this.list = options.list;
    this.complete = options.complete ?? {};
  }
}

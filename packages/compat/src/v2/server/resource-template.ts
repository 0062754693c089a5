import type { ListResourcesResult } from '@x/protocol';
import { type CompleteCallback, ResourceTemplate as XResourceTemplate, type UriTemplate } from '@x/server';
import { type HandlerContext, runHandler } from './handler-context.js';

/** Lists the resources a template stands for, with the 2.x context. */
export type ListResourcesCallback = (
  ctx: HandlerContext,
) => Pick<ListResourcesResult, 'resources'> | Promise<Pick<ListResourcesResult, 'resources'>>;

/**
 * The official 2.x `ResourceTemplate`: an RFC 6570 template, a `list` callback (required, may be
 * `undefined`) and completers of its variables.
 *
 * @example
 * ```ts
 * server.registerResource('user', new ResourceTemplate('users://{id}', { list: undefined }), {}, (uri, { id }) => ({
 *   contents: [{ uri: uri.href, text: `user ${id}` }],
 * }));
 * ```
 */
export class ResourceTemplate extends XResourceTemplate {
  constructor(
    uriTemplate: string | UriTemplate,
    callbacks: {
      list: ListResourcesCallback | undefined;
      complete?: { [variable: string]: CompleteCallback } | undefined;
    },
  ) {
    const list = callbacks.list;
    super(typeof uriTemplate === 'string' ? uriTemplate : uriTemplate.toString(), {
      list: list === undefined ? undefined : (ctx) => runHandler(ctx, list),
      complete: callbacks.complete,
    });
  }
}

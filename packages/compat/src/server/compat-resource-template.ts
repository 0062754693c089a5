import type { ListResourcesResult } from '@x/protocol';
import { type CompleteCallback, ResourceTemplate as XResourceTemplate, type UriTemplate } from '@x/server';
import { type RequestHandlerExtra, toRequestExtra } from '../shared/request-handler-extra.js';

/** Lists the resources a template stands for, with the official `extra`. */
export type ListResourcesCallback = (
  extra: RequestHandlerExtra,
) => Pick<ListResourcesResult, 'resources'> | Promise<Pick<ListResourcesResult, 'resources'>>;

/**
 * The official 1.x `ResourceTemplate`: an RFC 6570 template, a `list` callback (required, may be
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
  readonly #list: ListResourcesCallback | undefined;

  constructor(
    uriTemplate: string | UriTemplate,
    callbacks: {
      list: ListResourcesCallback | undefined;
      complete?: { [variable: string]: CompleteCallback } | undefined;
    },
  ) {
    const list = callbacks.list;
    super(typeof uriTemplate === 'string' ? uriTemplate : uriTemplate.toString(), {
      list: list === undefined ? undefined : (ctx) => list(toRequestExtra(ctx)),
      complete: callbacks.complete,
    });
    this.#list = list;
  }

  /** The `list` callback given to the constructor. */
  get listCallback(): ListResourcesCallback | undefined {
    return this.#list;
  }

  /** The completer of `variable`, if any. */
  completeCallback(variable: string): CompleteCallback | undefined {
    return Object.hasOwn(this.complete, variable) ? this.complete[variable] : undefined;
  }
}

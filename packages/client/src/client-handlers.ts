import {
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type Era,
  ErrorCode,
  type ListRootsRequestParams,
  type ListRootsResult,
  McpError,
  TASKS_EXTENSION,
} from '@x/protocol/core';
import { fillElicitationDefaults } from './elicitation-defaults.js';
import type { InputContext } from './input-context.js';
import type { ClientTasks } from './legacy/client-tasks.js';

/**
 * Answers `sampling/createMessage`.
 *
 * @example
 * ```ts
 * const sample: SamplingHandler = async (params, { signal }) => ({
 *   role: 'assistant',
 *   content: { type: 'text', text: await llm.complete(params.messages, { signal }) },
 *   model: 'my-model',
 * });
 * client.setSamplingHandler(sample);
 * ```
 */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  ctx: InputContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/**
 * Answers `elicitation/create` (form or URL mode).
 *
 * @example
 * ```ts
 * const elicit: ElicitationHandler = async (params, { signal }) => {
 *   if (params.mode === 'url') return { action: 'decline' };
 *   const content = await askUser(params.message, signal);
 *   return content ? { action: 'accept', content } : { action: 'cancel' };
 * };
 * client.setElicitationHandler(elicit, { form: true });
 * ```
 */
export type ElicitationHandler = (
  params: ElicitRequestParams,
  ctx: InputContext,
) => ElicitResult | Promise<ElicitResult>;

/**
 * Answers `roots/list`.
 *
 * @example
 * ```ts
 * const roots: RootsHandler = () => ({
 *   roots: [{ uri: `file://${process.cwd()}`, name: 'workspace' }],
 * });
 * client.setRootsHandler(roots);
 * await client.sendRootsListChanged(); // after the workspace changes
 * ```
 */
export type RootsHandler = (
  params: ListRootsRequestParams,
  ctx: InputContext,
) => ListRootsResult | Promise<ListRootsResult>;

/**
 * Elicitation modes the handler supports (2025-11-25 client/elicitation, "Capabilities").
 *
 * @example
 * ```ts
 * // Advertise URL-mode elicitation too (the handler opens the URL in a browser).
 * client.setElicitationHandler(elicit, { form: true, url: true });
 * ```
 */
export interface ElicitationModes {
  /** Default true. */
  form?: boolean | undefined;
  /** Default false. */
  url?: boolean | undefined;
}

/** The methods a server may ask a client for, in either era. */
export type InputMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/**
 * The user's sampling/elicitation/roots handlers, shared by both eras: the legacy engine calls them for
 * server→client requests, the modern session for the input requests of an `input_required` result.
 * Declared capabilities follow what is registered (plus explicit ones).
 */
export class ClientHandlers {
  sampling: SamplingHandler | undefined;
  elicitation: ElicitationHandler | undefined;
  roots: RootsHandler | undefined;
  #modes: { form: boolean; url: boolean } = { form: true, url: false };
  readonly #explicit: ClientCapabilities | undefined;
  readonly #tasks: ClientTasks | undefined;

  constructor(explicit: ClientCapabilities | undefined, tasks?: ClientTasks) {
    this.#explicit = explicit;
    this.#tasks = tasks;
  }

  setElicitation(handler: ElicitationHandler | undefined, modes: ElicitationModes | undefined): void {
    this.elicitation = handler;
    this.#modes = { form: modes?.form ?? true, url: modes?.url ?? false };
  }

  /**
   * The capabilities to declare. Legacy `roots` announces `listChanged` (the client may send
   * `notifications/roots/list_changed`); 2026-07-28 removed that notification, so modern says `roots: {}`.
   */
  capabilities(era: Era): ClientCapabilities {
    const caps: ClientCapabilities = { ...this.#explicit };
    if (this.sampling !== undefined) caps.sampling ??= {};
    if (this.elicitation !== undefined && caps.elicitation === undefined) {
      const elicitation: NonNullable<ClientCapabilities['elicitation']> = {};
      if (this.#modes.form) elicitation.form = {};
      if (this.#modes.url) elicitation.url = {};
      caps.elicitation = elicitation;
    }
    if (this.roots !== undefined) caps.roots ??= era === 'legacy' ? { listChanged: true } : {};
    // SEP-2663: this client follows task handles (callTool drives them to the result), so every
    // 2026-07-28 request declares the tasks extension in its per-request capabilities.
    if (era === 'modern') caps.extensions = { ...caps.extensions, [TASKS_EXTENSION]: {} };
    // Experimental tasks exist in 2025-11-25 only (an extension from 2026-07-28 on).
    if (this.#tasks !== undefined && era === 'legacy') {
      caps.tasks ??= this.#tasks.capability({
        sampling: this.sampling !== undefined,
        elicitation: this.elicitation !== undefined,
      });
    }
    return caps;
  }

  /** Runs the handler for one server request; throws -32601 when none is registered. */
  async answer(method: InputMethod, params: unknown, ctx: InputContext): Promise<object> {
    switch (method) {
      case 'sampling/createMessage':
        return this.#require(this.sampling, method)(params as CreateMessageRequestParams, ctx);
      case 'elicitation/create':
        return this.answerElicitation(params as ElicitRequestParams, ctx);
      case 'roots/list':
        return this.#require(this.roots, method)(params as ListRootsRequestParams, ctx);
    }
  }

  async answerElicitation(params: ElicitRequestParams, ctx: InputContext): Promise<ElicitResult> {
    const handler = this.#require(this.elicitation, 'elicitation/create');
    this.assertElicitationMode(params);
    return fillElicitationDefaults(params, await handler(params, ctx));
  }

  /** Throws -32602 for a mode this client did not declare. */
  assertElicitationMode(params: ElicitRequestParams): void {
    const mode = params.mode ?? 'form';
    // Servers MUST NOT use a mode the client did not declare (2025-11-25 client/elicitation).
    if (!(mode === 'form' || mode === 'url') || !this.#modes[mode]) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Elicitation mode "${mode}" is not supported by this client`,
      );
    }
  }

  #require<H>(handler: H | undefined, method: InputMethod): H {
    if (handler === undefined) {
      throw new McpError(ErrorCode.MethodNotFound, `No handler for ${method} is registered on this client`);
    }
    return handler;
  }
}

import {
  type AuthInfo,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type Era,
  ErrorCode,
  type Implementation,
  type ListRootsResult,
  type LoggingLevel,
  McpError,
  type MetaObject,
  type OutgoingNotification,
  type ProgressToken,
  type ProgressUpdate,
  type RequestContext,
  type RequestId,
  type RequestInfo,
} from '@x/protocol/core';
import {
  elicitationSpec,
  hasCapabilities,
  type InputOptions,
  type InputRequestSpec,
  rootsSpec,
  samplingSpec,
} from './input-requests.js';
import type { ServerSession } from './session/server-session.js';
import type { TaskChild, TaskScope } from './tasks/task-scope.js';

/**
 * Options of `ctx.runAsTask()`.
 *
 * @example
 * ```ts
 * const options: RunAsTaskOptions = {
 *   // A result that reports an error makes the task `failed` (spec: tools with `isError: true`).
 *   failure: (result) => (result['isError'] === true ? { message: 'the job failed' } : undefined),
 * };
 * ```
 */
export interface RunAsTaskOptions {
  /** Whether a successful result still counts as a failure, and the task's `statusMessage` then. */
  failure?: ((result: Record<string, unknown>) => { message?: string | undefined } | undefined) | undefined;
}

/**
 * One `notifications/message` entry (spec: server/utilities/logging).
 *
 * @example
 * ```ts
 * // The shape of one `notifications/message`, as `ctx.log(level, data, logger)` sends it.
 * const entry: LogEntry = { level: 'warning', data: { disk: '92% full' }, logger: 'storage' };
 * ```
 */
export interface LogEntry {
  level: LoggingLevel;
  data: unknown;
  logger?: string | undefined;
}

/**
 * How a request's era shapes the context: the one seam between shared handler code and the era
 * modules (DESIGN §4). Legacy sends real server→client requests and honours `logging/setLevel`;
 * 2026-07-28 turns input requests into an `input_required` round and logs only when the request's
 * `_meta` asked for it.
 *
 * @example
 * ```ts
 * // Handlers never see the binding itself; they read what it provides through the context:
 * console.log(
 *   ctx.era,
 *   ctx.protocolVersion,
 *   ctx.clientInfo?.name,
 *   ctx.clientCapabilities.elicitation !== undefined,
 * );
 * ```
 */
export interface EraBinding {
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  input(ctx: ServerContext, spec: InputRequestSpec, options: InputOptions | undefined): Promise<unknown>;
  log(ctx: ServerContext, entry: LogEntry): Promise<void>;
}

/**
 * What a handler of the `Server`/`McpServer` knows about the request it serves, and how it talks back.
 * The same code runs on both eras: `elicit`, `sample` and `listRoots` are server→client requests on a
 * legacy session and `input_required` rounds on 2026-07-28.
 *
 * @example
 * ```ts
 * server.registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
 *   const answer = await ctx.elicit({ mode: 'form', message: `Deploy to ${env}?`, requestedSchema: Confirm });
 *   if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Cancelled' }] };
 *   await ctx.sendProgress({ progress: 1, total: 2 });
 *   await ctx.log('info', `deploying to ${env}`);
 *   return { content: [{ type: 'text', text: 'Deployed' }] };
 * });
 * ```
 */
export class ServerContext {
  /** The engine's context of this request (ids, signal, transport extras). */
  readonly request: RequestContext;
  readonly session: ServerSession;
  readonly #binding: EraBinding;
  readonly #tasks: TaskScope | undefined;

  constructor(session: ServerSession, request: RequestContext, binding: EraBinding, tasks?: TaskScope) {
    this.session = session;
    this.request = request;
    this.#binding = binding;
    this.#tasks = tasks;
  }

  /**
   * Whether this request may run as a task: the server enabled `tasks` and the request is of a
   * 2025-11-25 session (experimental tasks) or of 2026-07-28 (the `io.modelcontextprotocol/tasks`
   * extension). False inside a task.
   */
  get tasksEnabled(): boolean {
    return this.#tasks !== undefined && this.#tasks.taskId === undefined;
  }

  /**
   * Which tasks this request has: `legacy` (2025-11-25, the client asks per request with `params.task`),
   * `extension` (2026-07-28, the client declares the extension and the server decides), or undefined.
   */
  get taskKind(): 'legacy' | 'extension' | undefined {
    return this.#tasks?.kind;
  }

  /**
   * Whether the client accepts a task handle for this request: the 2025-11-25 `params.task` (its
   * requested `ttl`), or `{}` when a 2026-07-28 request declared the tasks extension.
   */
  get taskRequested(): { ttl?: number | undefined } | undefined {
    return this.tasksEnabled ? this.#tasks?.requested : undefined;
  }

  /** The id of the task this context runs in, if any. */
  get taskId(): string | undefined {
    return this.#tasks?.taskId;
  }

  /**
   * Accepts this request as a task: resolves at once with the task handle to answer with, while `work`
   * runs in the background with a context of its own (its `signal` follows `tasks/cancel` and the
   * task's ttl). What `work` returns or throws becomes the task's result or error.
   * - 2025-11-25 (spec basic/utilities/tasks, "Creating Tasks"): `{ task }`; `elicit`/`sample` go out
   *   through `tasks/result`.
   * - 2026-07-28 (SEP-2663): the flat `CreateTaskResult` (`resultType: "task"`); `elicit`/`sample`
   *   become the task's `inputRequests`, answered with `tasks/update`; progress becomes `statusMessage`.
   * Rejects with -32600 when tasks are not enabled for this request, -32021 on 2026-07-28 when the
   * request did not declare the extension.
   *
   * @example
   * ```ts
   * // Ask synchronously first (an input_required round on 2026-07-28), then continue as a task.
   * server.registerTool('deploy', { execution: { taskSupport: 'optional' }, startsTask: 'handler' }, async (_args, ctx) => {
   *   const ok = await ctx.elicit({ mode: 'form', message: 'Deploy?', requestedSchema: Confirm });
   *   if (ok.action !== 'accept') return { content: [{ type: 'text', text: 'Cancelled' }] };
   *   return ctx.runAsTask(async (taskCtx) => {
   *     await taskCtx.reportTaskStatus('building');
   *     return { content: [{ type: 'text', text: 'Deployed' }] };
   *   });
   * });
   * ```
   */
  runAsTask(
    work: (ctx: ServerContext) => object | Promise<object>,
    options: RunAsTaskOptions = {},
  ): Promise<TaskHandle> {
    const scope = this.#tasks;
    if (scope === undefined || scope.taskId !== undefined) {
      return Promise.reject(
        new McpError(ErrorCode.InvalidRequest, 'Tasks are not available for this request'),
      );
    }
    const binding = this.#binding;
    return scope
      .start(this.request, (child: TaskChild) => work(this.#child(child, binding)), options.failure)
      .then(markTaskHandle);
  }

  /**
   * Reports how a running task is doing: sets its `statusMessage` (what `tasks/get` and status
   * notifications show, in both eras). A no-op outside a task.
   *
   * @example
   * ```ts
   * for (const [i, file] of files.entries()) {
   *   await ctx.reportTaskStatus(`indexing ${i + 1}/${files.length}: ${file}`);
   *   await index(file);
   * }
   * ```
   */
  reportTaskStatus(message: string): Promise<void> {
    return this.#tasks?.reportStatus(message) ?? Promise.resolve();
  }

  #child(child: TaskChild, binding: EraBinding): ServerContext {
    const input = child.input;
    const taskBinding = input === undefined ? binding : new TaskInputBinding(binding, input);
    return new ServerContext(this.session, child.request, taskBinding, child.scope);
  }

  get era(): Era {
    return this.#binding.era;
  }

  /** The negotiated (legacy) or declared (2026-07-28) protocol version of this request. */
  get protocolVersion(): string {
    return this.#binding.protocolVersion;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.#binding.clientCapabilities;
  }

  get clientInfo(): Implementation | undefined {
    return this.#binding.clientInfo;
  }

  get requestId(): RequestId {
    return this.request.requestId;
  }

  get method(): string {
    return this.request.method;
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.request.signal;
  }

  get _meta(): MetaObject | undefined {
    return this.request._meta;
  }

  get progressToken(): ProgressToken | undefined {
    return this.request.progressToken;
  }

  get sessionId(): string | undefined {
    return this.request.sessionId;
  }

  get authInfo(): AuthInfo | undefined {
    return this.request.authInfo;
  }

  get requestInfo(): RequestInfo | undefined {
    return this.request.requestInfo;
  }

  /** `notifications/progress` for this request; a no-op when the client sent no progress token. */
  sendProgress(update: ProgressUpdate): Promise<void> {
    return this.request.sendProgress(update);
  }

  /** A notification related to this request (same stream on HTTP). */
  sendNotification(notification: OutgoingNotification): Promise<void> {
    return this.request.sendNotification(notification);
  }

  /**
   * Logs to the client, when the client asked for this level: `logging/setLevel` on legacy, the
   * request's `_meta` `io.modelcontextprotocol/logLevel` on 2026-07-28 (otherwise nothing is sent).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.#binding.log(this, { level, data, logger });
  }

  /**
   * Asks the user through the client (form or URL mode). Rejects with -32021 (2026-07-28) or an
   * `McpError` (legacy) when the client did not declare the needed `elicitation` capability.
   */
  elicit(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult> {
    const spec = elicitationSpec(params as Record<string, unknown>);
    return this.#binding.input(this, spec, options) as Promise<ElicitResult>;
  }

  /** Asks the client's LLM for a completion (`sampling/createMessage`, incl. tools/toolChoice). */
  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    const spec = samplingSpec(params as Record<string, unknown>);
    return this.#binding.input(this, spec, options) as Promise<CreateMessageResult>;
  }

  /** Asks the client for its roots (`roots/list`). */
  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.#binding.input(this, rootsSpec(), options) as Promise<ListRootsResult>;
  }
}

/**
 * What `ctx.runAsTask()` answers with: `{ task }` (2025-11-25) or the flat `CreateTaskResult` with
 * `resultType: "task"` (2026-07-28). Return it from the handler as it is.
 *
 * @example
 * ```ts
 * const handle: TaskHandle = await ctx.runAsTask(work);
 * return handle;
 * ```
 */
export type TaskHandle = Record<string, unknown>;

const TASK_HANDLES = new WeakSet<object>();

function markTaskHandle(handle: object): TaskHandle {
  TASK_HANDLES.add(handle);
  return handle as TaskHandle;
}

/** Whether a handler's return value is the handle `ctx.runAsTask()` made (no output schema applies). */
export function isTaskHandle(value: unknown): boolean {
  return typeof value === 'object' && value !== null && TASK_HANDLES.has(value);
}

/** The binding inside a 2026-07-28 task: input goes to the task's `inputRequests`; no log stream. */
class TaskInputBinding implements EraBinding {
  readonly #outer: EraBinding;
  readonly #input: NonNullable<TaskChild['input']>;

  constructor(outer: EraBinding, input: NonNullable<TaskChild['input']>) {
    this.#outer = outer;
    this.#input = input;
  }

  get era(): Era {
    return this.#outer.era;
  }

  get protocolVersion(): string {
    return this.#outer.protocolVersion;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.#outer.clientCapabilities;
  }

  get clientInfo(): Implementation | undefined {
    return this.#outer.clientInfo;
  }

  input(_ctx: ServerContext, spec: InputRequestSpec, options: InputOptions | undefined): Promise<unknown> {
    // Same rule as the request itself: nothing the client did not declare (basic/patterns/mrtr).
    if (!hasCapabilities(this.#outer.clientCapabilities, spec.required)) {
      return Promise.reject(
        new McpError(
          ErrorCode.MissingRequiredClientCapability,
          `${spec.method} needs a client capability this request did not declare`,
          { requiredCapabilities: spec.required },
        ),
      );
    }
    return this.#input(spec, options);
  }

  /** SEP-2663: notifications/message is not supported on tasks. */
  log(): Promise<void> {
    return Promise.resolve();
  }
}

import {
  type ClientCapabilities,
  type CreateTaskResult,
  ErrorCode,
  McpError,
  type RequestContext,
} from '@x/protocol/core';
import { TaskReceiver, type TaskReceiverOptions } from '@x/protocol/internal';
import type { ClientEngine } from '../client-engine.js';
import type { InputContext } from '../input-context.js';

/** The only revision with (experimental) tasks. */
const TASKS_REVISION = '2025-11-25';
/** A client has one requestor: the server it is connected to. */
const OWNER = 'server';

/**
 * `tasks` option of a client: answer task-augmented `sampling/createMessage` and
 * `elicitation/create` from a 2025-11-25 server (spec basic/utilities/tasks, "Client Capabilities")
 * with a `CreateTaskResult`, run the handler in the background, and serve `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel`. Declared for the handlers that are set.
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'app', version: '1.0.0' }, { tasks: { maxTtlMs: 600_000 } });
 * client.setSamplingHandler(async (params, { signal }) => callMyLlm(params, signal));
 * ```
 */
export interface ClientTaskOptions extends TaskReceiverOptions {
  /** Declare `tasks.list` and answer `tasks/list`. Default true. */
  list?: boolean | undefined;
}

/** The client's half of tasks as a receiver, on the shared `TaskReceiver` of `@x/protocol`. */
export class ClientTasks {
  readonly #receiver: TaskReceiver;
  readonly #list: boolean;

  constructor(options: ClientTaskOptions) {
    this.#receiver = new TaskReceiver(options);
    this.#list = options.list ?? true;
  }

  /** The `tasks` capability (legacy only): the request types whose handler is set. */
  capability(handlers: {
    sampling: boolean;
    elicitation: boolean;
  }): NonNullable<ClientCapabilities['tasks']> {
    const requests: NonNullable<NonNullable<ClientCapabilities['tasks']>['requests']> = {};
    if (handlers.sampling) requests.sampling = { createMessage: {} };
    if (handlers.elicitation) requests.elicitation = { create: {} };
    const tasks: NonNullable<ClientCapabilities['tasks']> = {};
    if (this.#list) tasks.list = {};
    tasks.cancel = {};
    tasks.requests = requests;
    return tasks;
  }

  /** The four `tasks/*` requests a server may send about the tasks this client runs. */
  register(engine: ClientEngine): void {
    const methods = ['tasks/get', 'tasks/result', 'tasks/cancel'];
    if (this.#list) methods.push('tasks/list');
    for (const method of methods) {
      engine.setRequestHandler(method, (params, ctx) => {
        if (engine.version !== TASKS_REVISION) {
          throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        }
        return this.#receiver.handle(method, params, OWNER, ctx);
      });
    }
  }

  /** Whether `params` asks for a task this client may accept on the negotiated revision. */
  wants(engine: ClientEngine, params: Record<string, unknown>): boolean {
    const task = params['task'];
    return engine.version === TASKS_REVISION && typeof task === 'object' && task !== null;
  }

  /**
   * Accepts the request as a task: `CreateTaskResult` now, `answer` in the background with the task's
   * signal; its result (or `McpError`) is what `tasks/result` returns.
   */
  start(
    engine: ClientEngine,
    request: RequestContext,
    params: Record<string, unknown>,
    answer: (params: Record<string, unknown>, ctx: InputContext) => Promise<object>,
  ): Promise<CreateTaskResult> {
    const { task, ...plain } = params;
    const ttl = (task as { ttl?: unknown }).ttl;
    return this.#receiver.start(
      {
        owner: OWNER,
        method: request.method,
        ttl: typeof ttl === 'number' ? ttl : undefined,
        notify: (state) => {
          engine.notification({ method: 'notifications/tasks/status', params: state }).catch(() => undefined);
        },
      },
      async (run) => (await answer(plain, { signal: run.signal })) as Record<string, unknown>,
    );
  }

  /** The connection ended: nobody can reach its tasks any more. */
  reset(): void {
    this.#receiver.dropOwner(OWNER, new McpError(ErrorCode.ConnectionClosed, 'Connection closed'));
  }
}

import {
  DeferredCreateMessageRequestParamsSchema,
  DeferredElicitRequestParamsSchema,
  DeferredListRootsRequestParamsSchema,
} from '@x/protocol/internal';
import type { ClientEngine } from '../client-engine.js';
import type { ClientHandlers } from '../client-handlers.js';
import type { ClientTasks } from './client-tasks.js';

/**
 * Server → client requests of the legacy era (sampling, elicitation, roots), answered by the same
 * handlers the modern era uses for input requests. Always registered: without a user handler they
 * answer -32601, exactly as an absent handler would, so nothing needs re-registering later. With
 * `tasks`, a task-augmented sampling or elicitation request on 2025-11-25 (whose handler is set, so
 * whose task support was declared) becomes a task; otherwise the `task` field is ignored (spec
 * basic/utilities/tasks, "Task Support and Handling").
 */
export function registerServerRequests(
  engine: ClientEngine,
  handlers: ClientHandlers,
  tasks: ClientTasks | undefined,
): void {
  engine.setRequestHandler(
    'sampling/createMessage',
    DeferredCreateMessageRequestParamsSchema,
    (params, ctx): Promise<object> => {
      if (tasks !== undefined && handlers.sampling !== undefined && tasks.wants(engine, params)) {
        return tasks.start(engine, ctx, params, (plain, input) =>
          handlers.answer('sampling/createMessage', plain, input),
        );
      }
      return handlers.answer('sampling/createMessage', params, ctx);
    },
  );
  engine.setRequestHandler(
    'elicitation/create',
    DeferredElicitRequestParamsSchema,
    async (params, ctx): Promise<object> => {
      if (tasks !== undefined && handlers.elicitation !== undefined && tasks.wants(engine, params)) {
        // An undeclared mode is the server's protocol error, answered now rather than as a failed task.
        handlers.assertElicitationMode(params);
        return tasks.start(engine, ctx, params, (plain, input) =>
          handlers.answer('elicitation/create', plain, input),
        );
      }
      return handlers.answerElicitation(params, ctx);
    },
  );
  engine.setRequestHandler('roots/list', DeferredListRootsRequestParamsSchema, (params, ctx) =>
    handlers.answer('roots/list', params, ctx),
  );
}

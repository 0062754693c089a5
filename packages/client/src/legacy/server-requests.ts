import {
  CreateMessageRequestParamsSchema,
  ElicitRequestParamsSchema,
  ListRootsRequestParamsSchema,
} from '@x/protocol';
import type { ClientEngine } from '../client-engine.js';
import type { ClientHandlers } from '../client-handlers.js';

/**
 * Server → client requests of the legacy era (sampling, elicitation, roots), answered by the same
 * handlers the modern era uses for input requests. Always registered: without a user handler they
 * answer -32601, exactly as an absent handler would, so nothing needs re-registering later.
 */
export function registerServerRequests(engine: ClientEngine, handlers: ClientHandlers): void {
  engine.setRequestHandler('sampling/createMessage', CreateMessageRequestParamsSchema, (params, ctx) =>
    handlers.answer('sampling/createMessage', params, ctx),
  );
  engine.setRequestHandler('elicitation/create', ElicitRequestParamsSchema, (params, ctx) =>
    handlers.answerElicitation(params, ctx),
  );
  engine.setRequestHandler('roots/list', ListRootsRequestParamsSchema, (params, ctx) =>
    handlers.answer('roots/list', params, ctx),
  );
}

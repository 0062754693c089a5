import type { InputRequests, InputResponses } from '@x/protocol/core';
import type { ClientEngine } from '../client-engine.js';
import type { ClientHandlers, InputMethod } from '../client-handlers.js';
import type { RequestEnvelope } from './request-envelope.js';

/** What a 2026-07-28 request needs to run its input rounds (and follow a task). */
export interface RoundTripContext {
  engine: ClientEngine;
  envelope: RequestEnvelope;
  handlers: ClientHandlers;
  maxInputRounds: number;
}

/** Answers input requests through the registered handlers, all at once. */
export async function fulfil(
  handlers: ClientHandlers,
  requests: InputRequests | undefined,
  signal: AbortSignal | undefined,
): Promise<InputResponses | undefined> {
  if (requests === undefined) return undefined;
  const keys = Object.keys(requests);
  if (keys.length === 0) return undefined;
  const inputCtx = { signal: signal ?? new AbortController().signal };
  const answers = await Promise.all(
    keys.map((key) => {
      const request = requests[key]!;
      return handlers.answer(request.method as InputMethod, request.params ?? {}, inputCtx);
    }),
  );
  // Null prototype: the keys are the server's, and `__proto__` must stay an ordinary key.
  const responses: Record<string, object> = Object.create(null);
  for (let i = 0; i < keys.length; i++) responses[keys[i]!] = answers[i]!;
  return responses as InputResponses;
}

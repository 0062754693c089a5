import { ErrorCode, type InputRequests, McpError } from '@x/protocol/core';
import { fastAccepts, formatIssues, schemaOrLoad } from '@x/protocol/internal';
import type { InputRequestSpec } from '../input-requests.js';

/** Thrown by `ctx.elicit/sample/listRoots` on 2026-07-28 when the answer is not there yet: ends the round. */
export class InputRequiredSignal extends Error {
  override readonly name = 'InputRequiredSignal';
  constructor() {
    super('Input required: the request ends with resultType "input_required" and resumes on retry');
  }
}

const SHORT_NAMES: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * One round of a multi round-trip request (spec 2026-07-28: basic/patterns/mrtr). The handler is run
 * from the start on every retry; each `ctx.elicit/sample/listRoots` call takes the next key, finds its
 * answer in the verified `requestState` (earlier rounds) or in this retry's `inputResponses`, and
 * otherwise records an input request and throws `InputRequiredSignal`. Calls started together
 * (`Promise.all`) all record theirs, so one `input_required` result can carry several requests.
 */
export class InputRound {
  readonly #earlier: Record<string, unknown>;
  readonly #responses: Record<string, unknown> | undefined;
  readonly #answered: Record<string, unknown> = {};
  readonly #seen = new Set<string>();
  #pending: InputRequests | undefined;
  #counter = 0;

  constructor(earlier: Record<string, unknown>, responses: Record<string, unknown> | undefined) {
    this.#earlier = earlier;
    this.#responses = responses;
  }

  /** The requests this round could not answer, or undefined when the handler needed nothing more. */
  get pending(): InputRequests | undefined {
    return this.#pending;
  }

  /** Every answer so far, to seal into the next `requestState`. */
  get answers(): Record<string, unknown> {
    return { ...this.#earlier, ...this.#answered };
  }

  ask(spec: InputRequestSpec, key: string | undefined): unknown {
    const id = key ?? `${SHORT_NAMES[spec.method] ?? 'input'}_${this.#counter}`;
    this.#counter++;
    if (this.#seen.has(id)) {
      throw new McpError(ErrorCode.InternalError, `Duplicate input request key "${id}" in one request`);
    }
    this.#seen.add(id);
    if (Object.hasOwn(this.#earlier, id)) return this.#earlier[id];
    const response =
      this.#responses !== undefined && Object.hasOwn(this.#responses, id) ? this.#responses[id] : undefined;
    if (response !== undefined) {
      // Everyday answers pass the schema's fast check; only another one waits for the (deferred) schema.
      if (fastAccepts(spec.resultSchema, response)) {
        this.#answered[id] = response;
        return response;
      }
      const schema = schemaOrLoad(spec.resultSchema);
      return schema instanceof Promise
        ? schema.then((loaded) => this.#take(id, spec, loaded, response))
        : this.#take(id, spec, schema, response);
    }
    this.#pending ??= {};
    this.#pending[id] = { method: spec.method, params: spec.params } as InputRequests[string];
    throw new InputRequiredSignal();
  }

  #take(
    id: string,
    spec: InputRequestSpec,
    schema: InputRequestSpec['resultSchema'],
    response: unknown,
  ): unknown {
    const parsed = schema.safeParse(response);
    if (!parsed.success) {
      // spec mrtr "Error Handling": an input response that cannot be parsed is a protocol error.
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid inputResponses["${id}"] for ${spec.method}: ${formatIssues(parsed.error)}`,
      );
    }
    this.#answered[id] = parsed.data;
    return parsed.data;
  }
}

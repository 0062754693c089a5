import { ErrorCode, type InputRequests, McpError } from '@x/protocol/core';
import {
  fastAccepts,
  formatIssues,
  isDeferredUnloaded,
  schemaOrLoad,
  type TaskRun,
} from '@x/protocol/internal';
import type { InputRequestSpec } from '../input-requests.js';

interface Waiting {
  readonly spec: InputRequestSpec;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

const SHORT_NAMES: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * The input requests of one running 2026-07-28 task (SEP-2663 "Task Update Requests"): `ctx.elicit`
 * and friends park here under a key unique over the task's lifetime; the task shows `input_required`
 * with them as `inputRequests` while any waits; `tasks/update` answers them, any subset at a time.
 */
export class TaskInbox {
  readonly #run: TaskRun;
  readonly #persist: (pending: InputRequests | undefined) => Promise<void>;
  readonly #waiting = new Map<string, Waiting>();
  readonly #used = new Set<string>();
  /** The store writes of `pending`, in order; a status change goes out after the write before it. */
  #writes: Promise<void> = Promise.resolve();
  #counter = 0;

  /**
   * @param persist keeps `pending` in the task store (`undefined`: none left) so `tasks/get` on every
   *   process shows them; resolves also when the write failed (it reports that itself).
   */
  constructor(run: TaskRun, persist: (pending: InputRequests | undefined) => Promise<void>) {
    this.#run = run;
    this.#persist = persist;
    run.signal.addEventListener('abort', () => this.close(run.signal.reason), { once: true });
  }

  /** The outstanding requests, as `tasks/get` shows them. */
  get pending(): InputRequests {
    const out: InputRequests = {};
    for (const [key, { spec }] of this.#waiting) {
      out[key] = { method: spec.method, params: spec.params } as InputRequests[string];
    }
    return out;
  }

  ask(spec: InputRequestSpec, key: string | undefined): Promise<unknown> {
    if (this.#run.signal.aborted) return Promise.reject(this.#run.signal.reason);
    let id = key;
    if (id === undefined) {
      do id = `${SHORT_NAMES[spec.method] ?? 'input'}_${this.#counter++}`;
      while (this.#used.has(id));
    } else if (this.#used.has(id)) {
      // "Each request key in inputRequests MUST be unique over the lifetime of a single task."
      return Promise.reject(
        new McpError(ErrorCode.InternalError, `Input request key "${id}" was already used by this task`),
      );
    }
    this.#used.add(id);
    const waiting = this.#waiting;
    return new Promise((resolve, reject) => {
      waiting.set(id, { spec, resolve, reject });
      const first = waiting.size === 1;
      // Stored before the status goes out: whoever hears `input_required` finds the requests in the store.
      const written = this.#save();
      if (first) {
        void written.then(() => {
          if (waiting.size > 0 && !this.#run.signal.aborted) void this.#run.transition('input_required');
        });
      }
    });
  }

  /**
   * `tasks/update`: answers the outstanding keys among `responses` ("Servers SHOULD ignore any
   * inputResponses mapped to a key that is not currently outstanding"); -32602 when an answer to an
   * outstanding key does not parse (nothing is answered then).
   */
  answer(responses: Record<string, unknown>): Promise<void> {
    // Everyday answers pass their schema's fast check; a schema that must judge one is loaded first.
    const loads: Promise<unknown>[] = [];
    for (const key of Object.keys(responses)) {
      const schema = this.#waiting.get(key)?.spec.resultSchema;
      if (schema !== undefined && isDeferredUnloaded(schema) && !fastAccepts(schema, responses[key])) {
        loads.push(Promise.resolve(schemaOrLoad(schema)));
      }
    }
    if (loads.length === 0) return Promise.resolve(this.#answerNow(responses));
    return Promise.all(loads).then(() => this.#answerNow(responses));
  }

  #answerNow(responses: Record<string, unknown>): void {
    const parsed: [Waiting, unknown, string][] = [];
    for (const key of Object.keys(responses)) {
      const waiting = this.#waiting.get(key);
      if (waiting === undefined) continue;
      const value = responses[key];
      const schema = waiting.spec.resultSchema;
      const result = fastAccepts(schema, value)
        ? { success: true as const, data: value }
        : schema.safeParse(value);
      if (!result.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid inputResponses["${key}"] for ${waiting.spec.method}: ${formatIssues(result.error)}`,
        );
      }
      parsed.push([waiting, result.data, key]);
    }
    if (parsed.length === 0) return;
    for (const [, , key] of parsed) this.#waiting.delete(key);
    // The store forgets them first; then the task is `working` again before its handler goes on (so its
    // next status, e.g. `completed`, comes after).
    void this.#save().then(() => {
      if (this.#waiting.size === 0 && this.#run.status === 'input_required') {
        void this.#run.transition('working');
      }
      for (const [waiting, value] of parsed) waiting.resolve(value);
    });
  }

  /** Queues the store write of what waits now. */
  #save(): Promise<void> {
    const pending = this.#waiting.size === 0 ? undefined : this.pending;
    const persist = this.#persist;
    this.#writes = this.#writes.then(() => persist(pending));
    return this.#writes;
  }

  /** The task ended: whatever still waits fails. */
  close(reason: unknown): void {
    if (this.#waiting.size === 0) return;
    for (const waiting of this.#waiting.values()) waiting.reject(reason);
    this.#waiting.clear();
    void this.#save();
  }
}

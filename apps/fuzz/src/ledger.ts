import type { RequestId } from '@x/protocol';
import type { Probe } from './hostile-input.js';

/** A response as read off the wire (anything with an `id` and `result` or `error`). */
export interface WireResponse {
  id: RequestId | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * Counts what a server owes and what it paid on one message-stream connection (stdio, WebSocket, an SSE
 * stream): every expected id must be answered exactly as often as it was asked, a refused text gets one
 * response with id null and -32700/-32600, and nothing else arrives.
 */
export class Ledger {
  readonly #owed = new Map<RequestId, number>();
  readonly #paid = new Map<RequestId, number>();
  readonly #succeeds = new Set<RequestId>();
  readonly problems: string[] = [];
  refusalsOwed = 0;
  refusalsPaid = 0;

  expect(probe: Probe): void {
    for (const id of probe.answers) this.#owed.set(id, (this.#owed.get(id) ?? 0) + 1);
    if (probe.refused) this.refusalsOwed++;
    if (probe.succeeds === true) for (const id of probe.answers) this.#succeeds.add(id);
  }

  /** Whether `id` has received every answer it is owed. */
  answered(id: RequestId): boolean {
    return (this.#paid.get(id) ?? 0) >= (this.#owed.get(id) ?? 1);
  }

  /** Ids still owed an answer. */
  missing(): RequestId[] {
    return [...this.#owed].filter(([id, count]) => (this.#paid.get(id) ?? 0) < count).map(([id]) => id);
  }

  settled(): boolean {
    return this.missing().length === 0 && this.refusalsPaid >= this.refusalsOwed;
  }

  receive(value: unknown): void {
    const responses = Array.isArray(value) ? value : [value];
    for (const response of responses as WireResponse[]) {
      // Notifications from the server (list_changed, logging) are not answers.
      if (typeof response === 'object' && response !== null && 'method' in response) continue;
      if (typeof response !== 'object' || response === null || !('id' in response)) {
        this.problems.push(`not a response: ${JSON.stringify(response).slice(0, 200)}`);
        continue;
      }
      if (response.id === null) {
        const code = response.error?.code;
        if (code !== -32700 && code !== -32600) this.problems.push(`id-null response with code ${code}`);
        this.refusalsPaid++;
        continue;
      }
      if (this.#succeeds.has(response.id) && response.error !== undefined) {
        this.problems.push(
          `valid call ${JSON.stringify(response.id)} failed: ${JSON.stringify(response.error).slice(0, 200)}`,
        );
      }
      const paid = (this.#paid.get(response.id) ?? 0) + 1;
      this.#paid.set(response.id, paid);
      const owed = this.#owed.get(response.id);
      if (owed === undefined)
        this.problems.push(`response to an id never asked: ${JSON.stringify(response.id)}`);
      else if (paid > owed)
        this.problems.push(`id ${JSON.stringify(response.id)} answered ${paid} times, asked ${owed}`);
    }
  }

  /** Everything wrong so far, including what is still owed. */
  verdict(): string[] {
    const problems = [...this.problems];
    const missing = this.missing();
    if (missing.length > 0)
      problems.push(`never answered: ${missing.map((id) => JSON.stringify(id)).join(', ')}`);
    if (this.refusalsPaid !== this.refusalsOwed) {
      problems.push(`${this.refusalsOwed} refused texts, ${this.refusalsPaid} id-null refusals`);
    }
    return problems;
  }
}

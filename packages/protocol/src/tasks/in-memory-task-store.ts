import type { InputRequests, Task } from '../schemas/index.js';
import type { StoredTask, TaskOutcome, TaskPage, TaskStore } from './task-store.js';

interface Entry {
  record: StoredTask;
  outcome: TaskOutcome | undefined;
  inputRequests: InputRequests | undefined;
  /** Creation order, the basis of list cursors. */
  seq: number;
}

const CURSOR_PREFIX = 'tasks:';

/**
 * The default `TaskStore`: a map in this process. Expired records are dropped lazily on read (the
 * receiver deletes them on time as well), so nothing outlives its `ttl` for long.
 *
 * @example
 * ```ts
 * const store = new InMemoryTaskStore();
 * const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { tasks: { store } });
 * ```
 */
export class InMemoryTaskStore implements TaskStore {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  #seq = 0;

  constructor(options: { now?: (() => number) | undefined } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Records currently held (expired ones included until they are read or deleted). */
  get size(): number {
    return this.#entries.size;
  }

  async create(record: StoredTask): Promise<void> {
    this.#entries.set(record.task.taskId, {
      record,
      outcome: undefined,
      inputRequests: undefined,
      seq: this.#seq++,
    });
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    return this.#live(taskId)?.record;
  }

  async update(taskId: string, task: Task): Promise<boolean> {
    const entry = this.#live(taskId);
    if (entry === undefined) return false;
    entry.record = { ...entry.record, task };
    return true;
  }

  async setOutcome(taskId: string, outcome: TaskOutcome): Promise<void> {
    const entry = this.#live(taskId);
    if (entry !== undefined) entry.outcome = outcome;
  }

  async getOutcome(taskId: string): Promise<TaskOutcome | undefined> {
    return this.#live(taskId)?.outcome;
  }

  async setInputRequests(taskId: string, inputRequests: InputRequests | undefined): Promise<void> {
    const entry = this.#live(taskId);
    // A copy: the caller's object goes on changing while the task waits.
    if (entry !== undefined)
      entry.inputRequests = inputRequests === undefined ? undefined : { ...inputRequests };
  }

  async getInputRequests(taskId: string): Promise<InputRequests | undefined> {
    const inputRequests = this.#live(taskId)?.inputRequests;
    return inputRequests === undefined ? undefined : { ...inputRequests };
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    let after = -1;
    if (cursor !== undefined) {
      const parsed = parseCursor(cursor);
      if (parsed === undefined) return undefined;
      after = parsed;
    }
    const now = this.#now();
    const tasks: StoredTask[] = [];
    let last = -1;
    let more = false;
    for (const [taskId, entry] of this.#entries) {
      if (expired(entry.record, now)) {
        this.#entries.delete(taskId);
        continue;
      }
      if (entry.record.owner !== owner || entry.seq <= after) continue;
      if (tasks.length === limit) {
        more = true;
        break;
      }
      tasks.push(entry.record);
      last = entry.seq;
    }
    return more ? { tasks, nextCursor: `${CURSOR_PREFIX}${last}` } : { tasks };
  }

  async delete(taskId: string): Promise<void> {
    this.#entries.delete(taskId);
  }

  #live(taskId: string): Entry | undefined {
    const entry = this.#entries.get(taskId);
    if (entry === undefined) return undefined;
    if (expired(entry.record, this.#now())) {
      this.#entries.delete(taskId);
      return undefined;
    }
    return entry;
  }
}

function expired(record: StoredTask, now: number): boolean {
  return record.expiresAt !== undefined && record.expiresAt <= now;
}

function parseCursor(cursor: string): number | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX)) return undefined;
  const digits = cursor.slice(CURSOR_PREFIX.length);
  if (!/^\d{1,15}$/.test(digits)) return undefined;
  return Number(digits);
}

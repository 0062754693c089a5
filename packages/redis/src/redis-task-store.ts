import type { InputRequests, StoredTask, Task, TaskOutcome, TaskPage, TaskStore } from '@x/protocol';
import {
  DEFAULT_PREFIX,
  isKeySafe,
  type RedisClient,
  type RedisStoreOptions,
  unsafeId,
} from './redis-client.js';

const CURSOR_PREFIX = 'tasks:';
const SET_IF_EXISTS =
  "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end return 0";

/**
 * A `TaskStore` on Redis (2025-11-25 experimental tasks): one hash per task (`<prefix>task:{<id>}`, the
 * record, the outcome and the pending 2026-07-28 `inputRequests` as JSON, so one slot) expiring at the task's `expiresAt`, and a sorted set per owner for
 * `tasks/list` in creation order. `tasks/get`, `tasks/result` and `tasks/list` then answer on any process.
 *
 * @example
 * ```ts
 * const server = new McpServer(info, { tasks: { store: new RedisTaskStore({ client }) } });
 * ```
 */
export class RedisTaskStore implements TaskStore {
  readonly #client: RedisClient;
  readonly #prefix: string;

  constructor(options: RedisStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
  }

  async create(record: StoredTask): Promise<void> {
    if (!isKeySafe(record.task.taskId)) throw unsafeId('Task', record.task.taskId);
    const key = this.#task(record.task.taskId);
    const seq = await this.#client.incr(`${this.#prefix}task-seq`);
    const multi = this.#client.multi().hSet(key, { record: JSON.stringify(record), seq: String(seq) });
    if (record.expiresAt !== undefined) multi.pExpireAt(key, record.expiresAt);
    await multi.exec();
    // The owner's list is in another slot than the task (a cluster refuses a transaction over both):
    // listed after the record exists, and `list` drops an id whose record is gone.
    await this.#client.zAdd(this.#owner(record.owner), { score: seq, value: record.task.taskId });
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    // A task id from a request that could name another key names no task.
    if (!isKeySafe(taskId)) return undefined;
    const text = await this.#client.hGet(this.#task(taskId), 'record');
    return text === null || text === undefined ? undefined : live(JSON.parse(text) as StoredTask);
  }

  async update(taskId: string, task: Task): Promise<boolean> {
    const record = await this.get(taskId);
    if (record === undefined) return false;
    await this.#client.hSet(this.#task(taskId), 'record', JSON.stringify({ ...record, task }));
    return true;
  }

  async setOutcome(taskId: string, outcome: TaskOutcome): Promise<void> {
    if (!isKeySafe(taskId)) return;
    const key = this.#task(taskId);
    if ((await this.#client.exists(key)) === 0) return;
    await this.#client.hSet(key, 'outcome', JSON.stringify(outcome));
  }

  async getOutcome(taskId: string): Promise<TaskOutcome | undefined> {
    if (!isKeySafe(taskId)) return undefined;
    const text = await this.#client.hGet(this.#task(taskId), 'outcome');
    return text === null || text === undefined ? undefined : (JSON.parse(text) as TaskOutcome);
  }

  async setInputRequests(taskId: string, inputRequests: InputRequests | undefined): Promise<void> {
    if (!isKeySafe(taskId)) return;
    const key = this.#task(taskId);
    if (inputRequests === undefined) {
      await this.#client.hDel(key, 'input');
      return;
    }
    // A separate field, so `update` (read, then write `record`) never overwrites it; set only while the
    // hash exists, in one step, so a task deleted meanwhile does not come back without its expiry.
    await this.#client.eval(SET_IF_EXISTS, {
      keys: [key],
      arguments: ['input', JSON.stringify(inputRequests)],
    });
  }

  async getInputRequests(taskId: string): Promise<InputRequests | undefined> {
    if (!isKeySafe(taskId)) return undefined;
    const text = await this.#client.hGet(this.#task(taskId), 'input');
    return text === null || text === undefined ? undefined : (JSON.parse(text) as InputRequests);
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    let after = 0;
    if (cursor !== undefined) {
      if (!cursor.startsWith(CURSOR_PREFIX) || !/^\d{1,15}$/.test(cursor.slice(CURSOR_PREFIX.length))) {
        return undefined;
      }
      after = Number(cursor.slice(CURSOR_PREFIX.length));
    }
    const ownerKey = this.#owner(owner);
    const tasks: StoredTask[] = [];
    let last = after;
    for (;;) {
      const ids = await this.#client.zRangeByScore(ownerKey, `(${last}`, '+inf', {
        LIMIT: { offset: 0, count: limit + 1 },
      });
      if (ids.length === 0) return { tasks };
      for (const id of ids) {
        const score = await this.#client.zScore(ownerKey, id);
        const record = await this.get(id);
        if (record === undefined) {
          await this.#client.zRem(ownerKey, id);
        } else {
          if (tasks.length === limit) return { tasks, nextCursor: `${CURSOR_PREFIX}${last}` };
          tasks.push(record);
        }
        last = Number(score);
      }
    }
  }

  async delete(taskId: string): Promise<void> {
    if (!isKeySafe(taskId)) return;
    const record = await this.get(taskId);
    // Two single-slot steps (the task and its owner's list live in different slots): the record
    // first, so a failure in between leaves a listed id that `list` drops, never a task out of its list.
    await this.#client.del(this.#task(taskId));
    if (record !== undefined) await this.#client.zRem(this.#owner(record.owner), taskId);
  }

  #task(taskId: string): string {
    // `{<id>}`: the hash tag, so a cluster places the task (record, outcome, pending input) by its id.
    return `${this.#prefix}task:{${taskId}}`;
  }

  #owner(owner: string): string {
    return `${this.#prefix}tasks-of:${owner}`;
  }
}

function live(record: StoredTask): StoredTask | undefined {
  return record.expiresAt !== undefined && record.expiresAt <= Date.now() ? undefined : record;
}

import { MetaKey } from '../schemas/meta-keys.js';

/**
 * `params` (or a result) with `_meta["io.modelcontextprotocol/related-task"]` set to `taskId`, on a copy
 * (spec 2025-11-25 basic/utilities/tasks, "Associating Task-Related Messages": every request,
 * notification and response related to a task MUST carry it).
 *
 * @example
 * ```ts
 * const params = withRelatedTask({ mode: 'form', message: 'Which region?' }, task.taskId);
 * // params._meta['io.modelcontextprotocol/related-task'] → { taskId: task.taskId }
 * ```
 */
export function withRelatedTask(
  params: Record<string, unknown> | undefined,
  taskId: string,
): Record<string, unknown> {
  const meta = params?.['_meta'];
  const base = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined;
  return { ...params, _meta: { ...base, [MetaKey.RelatedTask]: { taskId } } };
}

/**
 * The task id a message's `_meta` ties it to, if any.
 *
 * @example
 * ```ts
 * client.setElicitationHandler(async (params) => {
 *   const taskId = relatedTaskOf(params._meta);
 *   if (taskId !== undefined) console.log('asked on behalf of task', taskId);
 *   return { action: 'decline' };
 * });
 * ```
 */
export function relatedTaskOf(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const related = (meta as Record<string, unknown>)[MetaKey.RelatedTask];
  if (typeof related !== 'object' || related === null) return undefined;
  const taskId = (related as Record<string, unknown>)['taskId'];
  return typeof taskId === 'string' ? taskId : undefined;
}

import type { ProtocolVersion } from '../versions.js';
import type {
  ClientNotificationMethod,
  ClientRequestMethod,
  ServerNotificationMethod,
  ServerRequestMethod,
} from './methods.js';

/**
 * Which methods exist in which revision, so a server can answer -32601 for a method its negotiated
 * revision does not have (e.g. `ping` on 2026-07-28, `server/discover` on 2025-06-18). Each
 * revision is written as the previous one plus/minus its changes; `schemas-drift.test.ts` holds
 * these lists against the `ClientRequest`/`ServerRequest`/… unions of every `schema.json`.
 */
export interface RevisionMethods {
  readonly clientRequests: readonly ClientRequestMethod[];
  /** Server → client requests; empty in 2026-07-28, which has no server-initiated requests. */
  readonly serverRequests: readonly ServerRequestMethod[];
  readonly clientNotifications: readonly ClientNotificationMethod[];
  readonly serverNotifications: readonly ServerNotificationMethod[];
  /** Methods allowed in `inputRequests` of an `input_required` result (2026-07-28 only). */
  readonly inputRequests: readonly ServerRequestMethod[];
}

const v2024_11_05: RevisionMethods = {
  clientRequests: [
    'initialize',
    'ping',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'resources/subscribe',
    'resources/unsubscribe',
    'prompts/list',
    'prompts/get',
    'tools/list',
    'tools/call',
    'logging/setLevel',
    'completion/complete',
  ],
  serverRequests: ['ping', 'sampling/createMessage', 'roots/list'],
  clientNotifications: [
    'notifications/cancelled',
    'notifications/initialized',
    'notifications/progress',
    'notifications/roots/list_changed',
  ],
  serverNotifications: [
    'notifications/cancelled',
    'notifications/progress',
    'notifications/resources/list_changed',
    'notifications/resources/updated',
    'notifications/prompts/list_changed',
    'notifications/tools/list_changed',
    'notifications/message',
  ],
  inputRequests: [],
};

/** 2025-03-26 changed no method (batching and audio are not methods). */
const v2025_03_26: RevisionMethods = v2024_11_05;

/** 2025-06-18: + elicitation. */
const v2025_06_18: RevisionMethods = {
  ...v2025_03_26,
  serverRequests: [...v2025_03_26.serverRequests, 'elicitation/create'],
};

const TASK_METHODS = ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'] as const;

/** 2025-11-25: + experimental tasks (both directions), + URL elicitation completion. */
const v2025_11_25: RevisionMethods = {
  ...v2025_06_18,
  clientRequests: [...v2025_06_18.clientRequests, ...TASK_METHODS],
  serverRequests: [...v2025_06_18.serverRequests, ...TASK_METHODS],
  clientNotifications: [...v2025_06_18.clientNotifications, 'notifications/tasks/status'],
  serverNotifications: [
    ...v2025_06_18.serverNotifications,
    'notifications/tasks/status',
    'notifications/elicitation/complete',
  ],
};

/**
 * 2026-07-28 (changelog, "Major changes" 2-7): no handshake, `ping`, `logging/setLevel`,
 * `resources/(un)subscribe`, tasks (now an extension) or server-initiated requests; + `server/discover`
 * and `subscriptions/listen`. Clients send only `notifications/cancelled`; sampling, roots and
 * elicitation travel as input requests of an `input_required` result.
 */
const v2026_07_28: RevisionMethods = {
  clientRequests: [
    'server/discover',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'subscriptions/listen',
    'prompts/list',
    'prompts/get',
    'tools/list',
    'tools/call',
    'completion/complete',
  ],
  serverRequests: [],
  clientNotifications: ['notifications/cancelled'],
  serverNotifications: [
    'notifications/cancelled',
    'notifications/progress',
    'notifications/resources/list_changed',
    'notifications/subscriptions/acknowledged',
    'notifications/resources/updated',
    'notifications/prompts/list_changed',
    'notifications/tools/list_changed',
    'notifications/message',
  ],
  inputRequests: ['sampling/createMessage', 'roots/list', 'elicitation/create'],
};

/**
 * Method lists per revision.
 *
 * @example
 * ```ts
 * revisionMethods['2025-03-26'].serverRequests.includes('elicitation/create'); // false: added in 2025-06-18
 * revisionMethods['2026-07-28'].clientRequests.includes('ping'); // false: removed
 * revisionMethods['2026-07-28'].inputRequests; // sampling/createMessage, roots/list, elicitation/create
 * ```
 */
export const revisionMethods: Readonly<Record<ProtocolVersion, RevisionMethods>> = {
  '2024-11-05': v2024_11_05,
  '2025-03-26': v2025_03_26,
  '2025-06-18': v2025_06_18,
  '2025-11-25': v2025_11_25,
  '2026-07-28': v2026_07_28,
};

/** The same lists as sets, for O(1) membership checks on the hot path. */
export interface RevisionMethodSets {
  readonly clientRequests: ReadonlySet<string>;
  readonly serverRequests: ReadonlySet<string>;
  readonly clientNotifications: ReadonlySet<string>;
  readonly serverNotifications: ReadonlySet<string>;
  readonly inputRequests: ReadonlySet<string>;
}

const toSets = (m: RevisionMethods): RevisionMethodSets => ({
  clientRequests: new Set(m.clientRequests),
  serverRequests: new Set(m.serverRequests),
  clientNotifications: new Set(m.clientNotifications),
  serverNotifications: new Set(m.serverNotifications),
  inputRequests: new Set(m.inputRequests),
});

const methodSets: Readonly<Record<ProtocolVersion, RevisionMethodSets>> = {
  '2024-11-05': toSets(v2024_11_05),
  '2025-03-26': toSets(v2025_03_26),
  '2025-06-18': toSets(v2025_06_18),
  '2025-11-25': toSets(v2025_11_25),
  '2026-07-28': toSets(v2026_07_28),
};

/**
 * The methods of one revision, as sets (built once at module load).
 *
 * @example
 * ```ts
 * if (!methodsOf(version).clientRequests.has(request.method)) {
 *   throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
 * }
 * ```
 */
export function methodsOf(version: ProtocolVersion): RevisionMethodSets {
  // Own properties only: a version string a peer sent must not find Object.prototype's members.
  if (!Object.hasOwn(methodSets, version)) throw new Error(`Unknown protocol version: ${String(version)}`);
  return methodSets[version];
}

import type { Interceptor } from '../engine/interceptors.js';
import { McpError } from '../errors.js';
import type { RequestId } from '../jsonrpc.js';
import { redact } from './redact.js';

/**
 * One logged message exchange, ready for a structured logger (every value JSON-serialisable).
 *
 * @example
 * ```ts
 * const entry: TrafficLogEntry = {
 *   direction: 'out', kind: 'request', method: 'tools/call', params: { name: 'login', arguments: { password: '[REDACTED]' } },
 *   outcome: 'ok', durationMs: 12.5,
 * };
 * ```
 */
export interface TrafficLogEntry {
  /** `'out'`: this side sent it (and got the answer); `'in'`: the peer sent it (and this side answered). */
  direction: 'out' | 'in';
  kind: 'request' | 'notification';
  method: string;
  /** The request id (incoming requests only: an outgoing one has none until the engine sends it). */
  id?: RequestId | undefined;
  /** Params with secrets redacted. */
  params?: unknown;
  /** Requests: `'ok'` or `'error'`. */
  outcome?: 'ok' | 'error' | undefined;
  /** Requests: from sending to the answer, in ms. */
  durationMs?: number | undefined;
  /** Requests that failed: the JSON-RPC error (or the local failure) as code and message. */
  error?: { code?: number | undefined; message: string } | undefined;
  /** With `results: true`: the result, redacted. */
  result?: unknown;
}

/**
 * Options of {@link trafficLog}.
 *
 * @example
 * ```ts
 * trafficLog({ log: (entry) => logger.info(entry), sensitiveArguments: { login: ['password', 'otp'] } });
 * ```
 */
export interface TrafficLogOptions {
  /** Receives every entry. */
  log: (entry: TrafficLogEntry) => void;
  /** Key names whose values are redacted anywhere in params and results. Default `DEFAULT_SECRET_KEYS`. */
  secretKeys?: RegExp | undefined;
  /**
   * Tool arguments to redact in `tools/call`, per tool name, on top of those the tools themselves mark
   * sensitive: an `inputSchema` property with `writeOnly: true` or `format: 'password'` (JSON Schema
   * 2020-12 annotations), learned from the `tools/list` results this interceptor sees pass by.
   */
  sensitiveArguments?: Record<string, readonly string[]> | undefined;
  /** Log results too (redacted). Default false: results can be large. */
  results?: boolean | undefined;
  /** Log notifications. Default true. */
  notifications?: boolean | undefined;
  now?: (() => number) | undefined;
}

/**
 * An interceptor that logs all traffic, both directions, as structured entries with secrets redacted:
 * tokens, passwords, keys and `Bearer …` credentials by name or shape, and tool arguments marked
 * sensitive (by option, or by the tool's own `inputSchema`).
 *
 * @example
 * ```ts
 * client.use(trafficLog({ log: (entry) => console.log(JSON.stringify(entry)) }));
 * // {"direction":"out","kind":"request","method":"tools/call","params":{"name":"login",
 * //  "arguments":{"user":"ada","password":"[REDACTED]"}},"outcome":"ok","durationMs":3.1}
 * ```
 */
export function trafficLog(options: TrafficLogOptions): Interceptor {
  const now = options.now ?? (() => performance.now());
  const secretKeys = options.secretKeys;
  // Tool name → argument names; a Map so a tool named `__proto__` is just a name.
  const sensitive = new Map<string, Set<string>>();
  for (const [tool, names] of Object.entries(options.sensitiveArguments ?? {}))
    sensitive.set(tool, new Set(names));
  const logNotifications = options.notifications !== false;

  const params = (method: string, value: Record<string, unknown> | undefined): unknown => {
    if (value === undefined) return undefined;
    if (method !== 'tools/call') return redact(value, { secretKeys });
    const tool = typeof value['name'] === 'string' ? value['name'] : undefined;
    const marked = tool === undefined ? undefined : sensitive.get(tool);
    const copied = redact(value, { secretKeys }) as Record<string, unknown>;
    if (marked !== undefined && typeof value['arguments'] === 'object' && value['arguments'] !== null) {
      copied['arguments'] = redact(value['arguments'], { secretKeys, sensitive: marked });
    }
    return copied;
  };

  const learn = (method: string, result: unknown): void => {
    if (method !== 'tools/list' || typeof result !== 'object' || result === null) return;
    const tools = (result as { tools?: unknown }).tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as Array<{ name?: unknown; inputSchema?: { properties?: unknown } }>) {
      const properties = tool?.inputSchema?.properties;
      if (typeof tool?.name !== 'string' || typeof properties !== 'object' || properties === null) continue;
      for (const [name, schema] of Object.entries(properties)) {
        const annotated = schema as { writeOnly?: unknown; format?: unknown } | null;
        if (annotated?.writeOnly === true || annotated?.format === 'password') {
          const names = sensitive.get(tool.name) ?? new Set<string>();
          names.add(name);
          sensitive.set(tool.name, names);
        }
      }
    }
  };

  const emit = (entry: TrafficLogEntry): void => {
    try {
      options.log(entry);
    } catch {
      // A failing logger must not fail the traffic it logs.
    }
  };

  const finish = (
    base: TrafficLogEntry,
    started: number,
    outcome: { result: unknown } | { error: unknown },
  ): void => {
    const entry: TrafficLogEntry = { ...base, durationMs: now() - started };
    if ('result' in outcome) {
      learn(base.method, outcome.result);
      entry.outcome = 'ok';
      if (options.results === true) entry.result = redact(outcome.result, { secretKeys });
    } else {
      const error = outcome.error;
      entry.outcome = 'error';
      entry.error =
        error instanceof McpError
          ? { code: error.code, message: error.message }
          : { message: error instanceof Error ? error.message : String(error) };
    }
    emit(entry);
  };

  return {
    async outgoingRequest(call, next) {
      const { method } = call.request;
      const base: TrafficLogEntry = {
        direction: 'out',
        kind: 'request',
        method,
        params: params(method, call.request.params),
      };
      const started = now();
      try {
        const result = await next(call);
        finish(base, started, { result });
        return result;
      } catch (error) {
        finish(base, started, { error });
        throw error;
      }
    },
    async incomingRequest(request, _ctx, next) {
      const { method } = request;
      const base: TrafficLogEntry = {
        direction: 'in',
        kind: 'request',
        method,
        id: request.id,
        params: params(method, request.params),
      };
      const started = now();
      try {
        const result = await next(request);
        finish(base, started, { result });
        return result;
      } catch (error) {
        finish(base, started, { error });
        throw error;
      }
    },
    outgoingNotification(call, next) {
      const { method } = call.notification;
      if (logNotifications) {
        emit({
          direction: 'out',
          kind: 'notification',
          method,
          params: params(method, call.notification.params),
        });
      }
      return next(call);
    },
    incomingNotification(notification, _extra, next) {
      const { method } = notification;
      if (logNotifications)
        emit({ direction: 'in', kind: 'notification', method, params: params(method, notification.params) });
      return next(notification);
    },
  };
}

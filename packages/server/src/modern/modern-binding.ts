import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
  McpError,
  MetaKey,
} from '@x/protocol/core';
import { hasCapabilities, type InputOptions, type InputRequestSpec } from '../input-requests.js';
import type { ServerCore } from '../server-core.js';
import type { EraBinding, LogEntry, ServerContext } from '../server-context.js';
import { describeValue, kindOf } from '../describe-value.js';
import type { InputRound } from './input-round.js';

/**
 * The era binding of one 2026-07-28 request: everything comes from the request's own `_meta` (spec:
 * basic/index "_meta", "Per-request protocol fields"); nothing is remembered between requests.
 */
export class ModernBinding implements EraBinding {
  readonly era = 'modern' as const;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
  /** Set for the methods that may answer `input_required`. */
  round: InputRound | undefined;
  readonly #core: ServerCore;

  constructor(core: ServerCore, meta: Record<string, unknown>) {
    this.#core = core;
    const version = meta[MetaKey.ProtocolVersion];
    if (typeof version !== 'string') throw invalidMeta(MetaKey.ProtocolVersion, version, 'a string');
    if (!core.modernVersions.includes(version)) {
      const message = `Unsupported protocol version: ${describeValue(version)} (supported: ${core.supportedVersions.join(', ')})`;
      throw new McpError(ErrorCode.UnsupportedProtocolVersion, message, {
        supported: core.supportedVersions,
        requested: version,
      });
    }
    const capabilities = meta[MetaKey.ClientCapabilities];
    if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
      throw invalidMeta(MetaKey.ClientCapabilities, capabilities, 'an object');
    }
    const level = meta[MetaKey.LogLevel];
    if (level !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(level)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid _meta "${MetaKey.LogLevel}": ${describeValue(level)} (expected one of ${LOGGING_LEVELS.join(', ')})`,
      );
    }
    const info = meta[MetaKey.ClientInfo];
    this.protocolVersion = version;
    this.clientCapabilities = capabilities as ClientCapabilities;
    this.clientInfo = typeof info === 'object' && info !== null ? (info as Implementation) : undefined;
    this.logLevel = level as LoggingLevel | undefined;
  }

  input(_ctx: ServerContext, spec: InputRequestSpec, options: InputOptions | undefined): Promise<unknown> {
    try {
      // spec basic/patterns/mrtr: MUST NOT send inputRequests the client has not declared.
      if (!hasCapabilities(this.clientCapabilities, spec.required)) {
        throw new McpError(
          ErrorCode.MissingRequiredClientCapability,
          `${spec.method} needs a client capability this request did not declare`,
          { requiredCapabilities: spec.required },
        );
      }
      if (this.round === undefined) {
        throw new McpError(
          ErrorCode.InternalError,
          `${spec.method} is unavailable here: only tools/call, prompts/get and resources/read may ask the client for input on 2026-07-28`,
        );
      }
      return Promise.resolve(this.round.ask(spec, options?.key));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** spec server/utilities/logging: only when this request's `_meta` asked, only on its own stream. */
  log(ctx: ServerContext, entry: LogEntry): Promise<void> {
    const wanted = this.logLevel;
    if (wanted === undefined || this.#core.capabilities.logging === undefined) return Promise.resolve();
    if (LOGGING_LEVELS.indexOf(entry.level) < LOGGING_LEVELS.indexOf(wanted)) return Promise.resolve();
    const params: Record<string, unknown> = { level: entry.level, data: entry.data };
    if (entry.logger !== undefined) params['logger'] = entry.logger;
    return ctx.request.sendNotification({ method: 'notifications/message', params });
  }
}

/** -32602 for a `_meta` field that is missing (basic/index "_meta") or of the wrong kind. */
function invalidMeta(key: string, value: unknown, expected: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    value === undefined
      ? `Missing _meta "${key}"`
      : `Invalid _meta "${key}": expected ${expected}, got ${kindOf(value)}`,
  );
}

import type {
  ClientCapabilities,
  Implementation,
  InitializeResult,
  ProtocolVersion,
  Transport,
} from '@x/protocol/core';
import { DeferredInitializeResultSchema } from '@x/protocol/internal';
import type { ClientEngine } from '../client-engine.js';
import { NegotiationError } from '../era-session.js';

export interface InitializeOptions {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /** The version the client asks for (its newest). */
  requested: ProtocolVersion;
  /** Versions the client accepts in the answer. */
  accepted: readonly ProtocolVersion[];
  timeout?: number | undefined;
}

/**
 * The legacy handshake (2025-11-25 basic/lifecycle, "Initialization"): `initialize`, check the version the
 * server chose, tell the transport (HTTP sends it as `MCP-Protocol-Version` from now on), then
 * `notifications/initialized`. A version the client does not support throws `NegotiationError`; the
 * caller closes the connection ("the client SHOULD disconnect").
 */
export async function initialize(
  engine: ClientEngine,
  transport: Transport,
  options: InitializeOptions,
): Promise<InitializeResult & { protocolVersion: ProtocolVersion }> {
  const params = {
    protocolVersion: options.requested,
    capabilities: options.capabilities,
    clientInfo: options.clientInfo,
  };
  const result = await engine.request(
    { method: 'initialize', params },
    DeferredInitializeResultSchema,
    options.timeout === undefined ? undefined : { timeout: options.timeout },
  );
  const version = result.protocolVersion;
  if (!isAccepted(options.accepted, version)) {
    throw new NegotiationError(
      `Server chose protocol version ${version}, which this client does not support ` +
        `(supported: ${options.accepted.join(', ')})`,
      [version],
    );
  }
  engine.version = version;
  transport.setProtocolVersion?.(version);
  await engine.notification({ method: 'notifications/initialized' });
  return { ...result, protocolVersion: version };
}

function isAccepted(accepted: readonly ProtocolVersion[], version: string): version is ProtocolVersion {
  return (accepted as readonly string[]).includes(version);
}

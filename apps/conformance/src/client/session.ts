import { httpAuthOptions, type OAuthClientProvider } from '@x/auth';
import { Client, type VersionSelection } from '@x/client';
import { isLegacyProtocolVersion, isModernProtocolVersion } from '@x/protocol';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';

/**
 * The era the harness asks for: `MCP_CONFORMANCE_PROTOCOL_VERSION` is a dated version up to 2025-11-25
 * (the `initialize` handshake) or 2026-07-28 (no handshake, `_meta` on every request). Pinning the exact
 * version keeps the client from probing the other era, which a single-era mock server would record as
 * a stray request. Without the variable (older CLIs, manual runs) the client negotiates.
 */
export function versionFromEnv(value: string | undefined): VersionSelection {
  if (value === undefined || value === '') return 'auto';
  if (isLegacyProtocolVersion(value) || isModernProtocolVersion(value)) return value;
  throw new Error(`MCP_CONFORMANCE_PROTOCOL_VERSION=${value} is not a version this client speaks`);
}

/** A connected client plus what the scenario handlers need to shut it down. */
export interface Session {
  client: Client;
  close(): Promise<void>;
}

/**
 * Connects to the mock server the way an application would: every input handler registered (so the
 * client declares sampling, elicitation and roots), answering with fixed values.
 */
export async function openSession(
  url: string,
  version: VersionSelection,
  auth?: OAuthClientProvider,
): Promise<Session> {
  const client = new Client(
    { name: 'x-mcp-conformance-client', version: '0.0.0' },
    { protocolVersion: version, onwarning: (message) => console.error(`[client] ${message}`) },
  );
  client.setSamplingHandler((params) => ({
    role: 'assistant',
    content: { type: 'text', text: `sampled: ${params.messages.length} message(s)` },
    model: 'conformance-model',
  }));
  client.setElicitationHandler(() => ({ action: 'accept', content: {} }));
  client.setRootsHandler(() => ({ roots: [{ uri: 'file:///conformance', name: 'conformance' }] }));
  // The transport's own auth options: token and DPoP proof per request, 401 → authorize or refresh,
  // 403 insufficient_scope → step-up, DPoP-Nonce from every response.
  await client.connect(
    new StreamableHttpClientTransport(url, auth === undefined ? {} : httpAuthOptions(auth)),
  );
  return { client, close: () => client.close() };
}

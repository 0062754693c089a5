import { beforeAll, describe, expect, it } from 'vitest';
import type { GrpcClientTransportOptions, GrpcListenOptions } from '../src/index.js';
import { type Certificates, connectClient, makeCertificates, startMcp, textOf } from './helpers.js';

let certs: Certificates;
beforeAll(() => {
  certs = makeCertificates();
}, 60_000);

type Security = 'insecure' | 'tls' | 'mtls';

function securityOptions(security: Security): {
  server: Partial<GrpcListenOptions>;
  client: GrpcClientTransportOptions;
} {
  if (security === 'insecure') return { server: {}, client: {} };
  const server = {
    tls: { cert: certs.serverCert, key: certs.serverKey, ...(security === 'mtls' ? { ca: certs.ca } : {}) },
  };
  const client = {
    tls: { ca: certs.ca, ...(security === 'mtls' ? { cert: certs.clientCert, key: certs.clientKey } : {}) },
  };
  return { server, client };
}

describe.each(['insecure', 'tls', 'mtls'] as const)('x-mcp Client ↔ McpServer over gRPC (%s)', (security) => {
  it.each(['legacy', 'modern'] as const)(
    '%s era: tools, resources, prompts',
    async (era) => {
      const { server, client: clientOptions } = securityOptions(security);
      await using listener = await startMcp(server);
      const target = security === 'insecure' ? listener.target : `localhost:${listener.port}`;
      const { client, transport } = await connectClient(target, { ...clientOptions, era });
      try {
        expect(client.protocolVersion).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
        const tools = await client.listTools();
        expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['add', 'blob', 'whoami']);
        expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }))).toBe('42');
        const resource = await client.readResource({ uri: 'demo://greeting' });
        expect(resource.contents[0]).toMatchObject({ text: 'hello over gRPC' });
        const prompt = await client.getPrompt({ name: 'hi' });
        expect(prompt.messages).toHaveLength(1);
        expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
        expect(listener.service.sessions).toBe(1);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

describe('TLS refusals', () => {
  it('an mTLS server refuses a client without a certificate', async () => {
    await using listener = await startMcp(securityOptions('mtls').server);
    await expect(
      connectClient(`localhost:${listener.port}`, { tls: { ca: certs.ca }, connectTimeoutMs: 10_000 }),
    ).rejects.toThrow(/UNAVAILABLE|lost/);
  }, 60_000);

  it('a client refuses a server certificate from an unknown CA', async () => {
    await using listener = await startMcp(securityOptions('tls').server);
    await expect(
      connectClient(`localhost:${listener.port}`, { tls: true, connectTimeoutMs: 10_000 }),
    ).rejects.toThrow(/UNAVAILABLE|lost/);
  }, 60_000);
});

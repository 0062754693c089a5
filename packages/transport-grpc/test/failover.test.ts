import { Client, FailoverTransport } from '@x/client';
import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { GrpcClientTransport } from '../src/index.js';
import { startMcp, textOf } from './helpers.js';

describe('FailoverTransport lists gRPC targets like any other', () => {
  it.each(['legacy', 'modern'] as const)(
    '%s era: the primary server goes away, calls go on on the secondary',
    async (era) => {
      const primary = await startMcp();
      await using secondary = await startMcp();
      const events: string[] = [];
      const transport = new FailoverTransport({
        transports: [
          { name: 'grpc-primary', create: () => new GrpcClientTransport(primary.target, { keepAliveMs: 0 }) },
          {
            name: 'grpc-secondary',
            create: () => new GrpcClientTransport(secondary.target, { keepAliveMs: 0 }),
          },
        ],
        onevent: ({ type, to }) => events.push(`${type}:${to ?? ''}`),
      });
      const client = new Client(
        { name: 'failover', version: '1.0.0' },
        { protocolVersion: era, retry: true },
      );
      await client.connect(transport);
      try {
        expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
        expect(primary.service.sessions).toBe(1);
        await primary.close();
        await waitFor(
          async () => {
            try {
              return textOf(await client.callTool({ name: 'add', arguments: { a: 3, b: 4 } })) === '7';
            } catch {
              return false;
            }
          },
          { timeoutMs: 20_000, what: 'a call through the secondary' },
        );
        expect(secondary.service.sessions).toBe(1);
        expect(events.some((event) => event.endsWith('grpc-secondary'))).toBe(true);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

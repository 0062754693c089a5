import { runTransportContract } from '@x/protocol/testing';
import { describe, expect, it } from 'vitest';
import { GrpcClientTransport, type GrpcListener } from '../src/index.js';
import { startSessions } from './helpers.js';

describe('transport contract kit over a real gRPC stream', () => {
  it('passes every scenario, client and server ends', async () => {
    const result = await runTransportContract(async () => {
      const sessions = await startSessions();
      const listener: GrpcListener = sessions.listener;
      const client = new GrpcClientTransport(listener.target, { keepAliveMs: 0 });
      await client.start();
      const { transport: server } = await sessions.next();
      return { client, server, started: true, dispose: () => listener.close() };
    });
    expect(result.skipped).toEqual([]);
  }, 120_000);
});

import * as protocol from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { isSchemaBuilt } from '@x/protocol/testing';
import { Client } from '../src/index.js';
import { CLIENT_INFO, fakeServer, legacyHandshake } from './helpers.js';
import { afterTimeouts } from '@x/test-kit';

// The params schemas of what a server may send a client; the client registers a handler for each.
const SERVER_SENT = {
  'sampling/createMessage': protocol.CreateMessageRequestParamsSchema,
  'elicitation/create': protocol.ElicitRequestParamsSchema,
  'notifications/message': protocol.LoggingMessageNotificationParamsSchema,
  'notifications/resources/updated': protocol.ResourceUpdatedNotificationParamsSchema,
  'notifications/elicitation/complete': protocol.ElicitationCompleteNotificationParamsSchema,
  'notifications/tasks/status': protocol.TaskStatusNotificationParamsSchema,
  'notifications/cancelled': protocol.CancelledNotificationParamsSchema,
};
const unbuilt = () =>
  Object.entries(SERVER_SENT)
    .filter(([, schema]) => !isSchemaBuilt(schema))
    .map(([method]) => method);

describe('Client: schemas of what a server may send', () => {
  it('are built when their first message arrives, not by the constructor or the handshake', async () => {
    const client = new Client(CLIENT_INFO, { protocolVersion: 'legacy' });
    client.setSamplingHandler(() => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }));
    expect(unbuilt()).toEqual(Object.keys(SERVER_SENT));

    const peer = await fakeServer((server) => legacyHandshake(server));
    await client.connect(peer.transport);
    expect(unbuilt()).toEqual(Object.keys(SERVER_SENT));
    // The everyday InitializeResult passes its fast check: neither it nor the capabilities are built.
    expect(client.serverCapabilities).toEqual({ tools: { listChanged: true }, logging: {} });
    expect(isSchemaBuilt(protocol.InitializeResultSchema)).toBe(false);
    expect(isSchemaBuilt(protocol.ServerCapabilitiesSchema)).toBe(false);

    const logs: unknown[] = [];
    client.on('log', (params) => logs.push(params));
    await peer.server.notification({
      method: 'notifications/message',
      params: { level: 'info', data: 'hi' },
    });
    await afterTimeouts();
    expect(logs).toEqual([{ level: 'info', data: 'hi' }]);
    expect(unbuilt()).not.toContain('notifications/message');
    expect(unbuilt()).toContain('sampling/createMessage');

    // The first request of a method builds its schema, and params that fail it still get -32602.
    await expect(
      peer.server.request(
        { method: 'sampling/createMessage', params: { messages: 'none', maxTokens: 1 } },
        protocol.CreateMessageResultSchema,
      ),
    ).rejects.toMatchObject({ code: protocol.ErrorCode.InvalidParams });
    expect(unbuilt()).not.toContain('sampling/createMessage');
    await client.close();
  });
});

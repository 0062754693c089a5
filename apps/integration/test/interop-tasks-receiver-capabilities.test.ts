import { toArrayAsync } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { Client } from '@x/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Resources } from './fixtures/e2e-helpers.js';
import { requestorSession, SAMPLE, SAMPLED, TTL } from './fixtures/v1-task-requestor.js';

// Spec 2025-11-25 basic/utilities/tasks, "Client Capabilities": the `tasks` capability our Client declares
// as a receiver, read back by the official v1 server (strict, so it refuses to augment what we did not
// declare).

const resources = new Resources();
afterEach(() => resources.closeAll());

describe('client tasks capability as the official v1 server sees it', () => {
  const sampling = (client: Client) => client.setSamplingHandler(async () => SAMPLED);
  const elicitation = (client: Client) => client.setElicitationHandler(async () => ({ action: 'decline' }));

  it('declares task-augmented sampling and elicitation when the option and both handlers are set', async () => {
    const { server } = await requestorSession({
      resources,
      configure: (client) => {
        sampling(client);
        elicitation(client);
      },
      client: { tasks: {} },
    });
    // "Clients declare if they support tasks, and if so, which client-side requests can be augmented with tasks."
    expect(server.getClientCapabilities()).toMatchObject({
      sampling: {},
      elicitation: { form: {} },
      tasks: {
        list: {},
        cancel: {},
        requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
      },
    });
  });

  it('declares only the request types whose handler is set, and no tasks.list when told so', async () => {
    const { server, relatedRequestId, received } = await requestorSession({
      resources,
      configure: elicitation,
      // `sampling` declared by hand, without a handler: no task support for it.
      client: { tasks: { list: false }, capabilities: { sampling: {} } },
    });
    expect(server.getClientCapabilities()).toEqual({
      sampling: {},
      elicitation: { form: {} },
      tasks: { cancel: {}, requests: { elicitation: { create: {} } } },
    });
    // "Requestors SHOULD only augment requests with a task if the corresponding capability has been declared by
    // the receiver": v1 (strict) refuses before sending.
    const refused = await toArrayAsync(
      server.experimental.tasks.createMessageStream(SAMPLE, { task: { ttl: TTL }, relatedRequestId }),
    );
    expect(refused).toEqual([
      {
        type: 'error',
        error: expect.objectContaining({
          message: expect.stringContaining('does not support task creation for sampling/createMessage'),
        }),
      },
    ]);
    expect(received.filter((m) => m.method === 'sampling/createMessage')).toEqual([]);
  });

  it('declares no tasks without the option, and v1 then creates no task', async () => {
    const seen: unknown[] = [];
    const { server, relatedRequestId, received } = await requestorSession({
      resources,
      configure: (client) =>
        client.setSamplingHandler(async (params) => {
          seen.push(params);
          return SAMPLED;
        }),
    });
    expect(server.getClientCapabilities()).toEqual({ sampling: {} });
    // "If `capabilities.tasks` is not defined, the peer SHOULD NOT attempt to create tasks during requests."
    const refused = await toArrayAsync(
      server.experimental.tasks.createMessageStream(SAMPLE, { task: { ttl: TTL }, relatedRequestId }),
    );
    expect(refused).toEqual([
      {
        type: 'error',
        error: expect.objectContaining({
          message: expect.stringContaining('does not support task creation'),
        }),
      },
    ]);
    expect(received.filter((m) => m.method === 'sampling/createMessage')).toEqual([]);
    expect(seen).toEqual([]);
  });
});

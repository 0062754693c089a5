import { ErrorCode, McpError } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { connect, initialize } from './helpers.js';

// 2025-11-25 client/elicitation, "URL mode": when the out-of-band interaction completes, the server MAY
// send notifications/elicitation/complete with the elicitationId of the request.
describe('sendElicitationComplete', () => {
  it('sends notifications/elicitation/complete to a client that declared URL-mode elicitation', async () => {
    const wire = await connect(new McpServer({ name: 's', version: '1' }));
    await initialize(wire, { capabilities: { elicitation: { form: {}, url: {} } } });
    await wire.session.sendElicitationComplete('elicit-42');
    expect(wire.notifications('notifications/elicitation/complete')).toEqual([
      { elicitationId: 'elicit-42' },
    ]);
  });

  it('refuses when the client did not declare URL mode, sending nothing', async () => {
    const wire = await connect(new McpServer({ name: 's', version: '1' }));
    await initialize(wire, { capabilities: { elicitation: { form: {} } } });
    const error = await wire.session.sendElicitationComplete('elicit-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidRequest);
    expect(wire.notifications('notifications/elicitation/complete')).toEqual([]);
  });
});

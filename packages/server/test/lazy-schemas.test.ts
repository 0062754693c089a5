import { ClientCapabilitiesSchema, InitializeRequestParamsSchema } from '@x/protocol';
import { isSchemaBuilt } from '@x/protocol/testing';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { connect } from './helpers.js';

const server = () => new McpServer({ name: 'lazy', version: '1.0.0' });

describe('initialize: the params schema', () => {
  it('is not built for the everyday params, and still turns down bad ones with -32602', async () => {
    const everyday = await connect(server());
    const result = await everyday.call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } },
      clientInfo: { name: 'host', version: '1.0.0' },
    });
    expect(result['protocolVersion']).toBe('2025-11-25');
    expect(isSchemaBuilt(InitializeRequestParamsSchema)).toBe(false);
    expect(isSchemaBuilt(ClientCapabilitiesSchema)).toBe(false);

    const bad = await connect(server());
    await expect(
      bad.call('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { roots: { listChanged: 'yes' } },
        clientInfo: { name: 'host', version: '1.0.0' },
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        'Invalid params for initialize: capabilities.roots.listChanged: Invalid input: expected boolean, received string',
    });
    expect(isSchemaBuilt(InitializeRequestParamsSchema)).toBe(true);
  });
});

import { inspect, types } from 'node:util';
import { expect, it } from 'vitest';
import * as protocol from '@x/protocol';

// The everyday schemas of @x/protocol are facades built on first read (lazySchema); importing the
// other packages must not read any of them, so a process pays only for the schemas it uses. A facade
// that is not built yet shows its empty slot ("value: undefined") when inspected as a proxy.
const unbuilt = (schema: unknown): boolean =>
  types.isProxy(schema) && inspect(schema, { showProxy: true, depth: 1 }).includes('value: undefined');

it('importing the server, the client and every transport builds none of the @x/protocol schemas', async () => {
  await Promise.all([
    import('@x/server'),
    import('@x/client'),
    import('@x/transport-stdio'),
    import('@x/transport-sse'),
    import('@x/transport-streamable-http'),
    import('@x/transport-ws'),
  ]);
  const schemas = Object.entries(protocol).filter(
    ([name, value]) => name.endsWith('Schema') && typeof value === 'object',
  );
  expect(schemas.length).toBeGreaterThan(150);
  expect(schemas.filter(([, schema]) => !unbuilt(schema)).map(([name]) => name)).toEqual([]);
  protocol.CallToolResultSchema.parse({ content: [] });
  expect(unbuilt(protocol.CallToolResultSchema)).toBe(false);
});

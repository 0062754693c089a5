import { expect, it } from 'vitest';
import { SseWriter } from '../src/server/sse-writer.js';

it('drops a reader that stops reading instead of buffering without bound', async () => {
  const disconnects: Array<Error | undefined> = [];
  const writer = new SseWriter({ maxBufferedBytes: 4096, onDisconnect: (error) => disconnects.push(error) });
  let writes = 0;
  while (writer.event(JSON.stringify({ pad: 'x'.repeat(500) }))) writes++;
  expect(writes).toBeGreaterThan(4);
  expect(writes).toBeLessThan(200);
  // The owner learns why, so the loss of what was not read is reported, not silent (issue #35).
  expect(disconnects).toHaveLength(1);
  expect(disconnects[0]?.message).toMatch(/maxBufferedBytes \(4096\)/);
  expect(writer.closed).toBe(true);
  await expect(writer.stream.getReader().read()).rejects.toThrow(/fell behind by more than maxBufferedBytes/);
});

it('frames events, priming events and retry hints as the SSE format requires', async () => {
  const writer = new SseWriter();
  writer.prime('s.1#0', 250);
  writer.event('{"a":1}', 's.1#1');
  writer.retry(500);
  writer.close();
  expect(await new Response(writer.stream).text()).toBe(
    'id: s.1#0\nretry: 250\ndata: \n\nid: s.1#1\ndata: {"a":1}\n\nretry: 500\n\n',
  );
  expect(writer.event('{}')).toBe(false);
});

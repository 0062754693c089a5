import { defineScenario } from '../define-scenario.js';
import { expectSame, notification } from './messages.js';

/** UTF-8 length of a string without `TextEncoder` allocations. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Exactly `bytes` UTF-8 bytes of numbered blocks mixing 1-, 2-, 3- and 4-byte characters, so any split,
 * shift, truncation or re-encoding (e.g. a chunk boundary inside a character) shows up as a difference.
 */
export function buildLargeString(bytes: number, tag: string): string {
  const blocks: string[] = [];
  let size = 0;
  for (let index = 0; ; index += 1) {
    const block = `<${tag}${index.toString(36)}|é€😀\n"\\>`;
    const blockSize = utf8Length(block);
    if (size + blockSize > bytes) break;
    blocks.push(block);
    size += blockSize;
  }
  blocks.push('x'.repeat(bytes - size));
  return blocks.join('');
}

export const largeMessageScenario = defineScenario(
  'large-message',
  'A message with a 1 MiB string parameter arrives unchanged in each direction, and framing holds after it.',
  async (context) => {
    const bytes = context.options.largeMessageBytes;
    const fromClient = [
      notification('test/large', { data: buildLargeString(bytes, 'c') }),
      notification('test/after-large', { seq: 1 }),
    ];
    const fromServer = [
      notification('test/large', { data: buildLargeString(bytes, 's') }),
      notification('test/after-large', { seq: 1 }),
    ];
    context.step(`sending a ${bytes}-byte message each way`);
    await Promise.all([
      ...fromClient.map((message) => context.client.send(message)),
      ...fromServer.map((message) => context.server.send(message)),
      context.server.waitForMessages(2),
      context.client.waitForMessages(2),
    ]);
    await context.settle();
    expectSame(context, 'messages from the client', fromClient, context.server.received);
    expectSame(context, 'messages from the server', fromServer, context.client.received);
  },
);

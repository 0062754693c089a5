import type { JSONRPCMessage } from '../../jsonrpc.js';
import { defineScenario } from '../define-scenario.js';
import { expectSame, notification, request } from './messages.js';

/**
 * Text that breaks transports which re-encode, normalise, trim, or split on anything but their own
 * frame delimiter: astral characters, combining marks (must not be NFC-normalised), RTL and bidi
 * controls, U+2028/U+2029 (raw in `JSON.stringify` output), NEL, BOM, and escapes that JSON encodes.
 */
export const UNICODE_SAMPLES: readonly string[] = [
  '😀🎉𝄞𠜎',
  '👨‍👩‍👧‍👦 🏳️‍🌈',
  'e\u0301 n\u0303 Z\u0324\u0354\u0367\u0311\u0313',
  'مرحبا بالعالم',
  'שלום \u200f abc \u202e reversed \u202c',
  'line\u2028separator\u2029paragraph',
  'embedded\nnewline and\r\ncrlf and\rcr',
  '\ttab "quotes" \\backslash\\ /slash',
  '\u0000\u0001\u001f\u007f\u0085',
  '\ufeffbom \ufffd\uffff',
  '日本語 नमस्ते ภาษาไทย',
  '</script><!--',
  '',
  ' leading and trailing spaces ',
];

export const unicodeScenario = defineScenario(
  'unicode',
  'Strings with astral characters, combining marks, RTL text, U+2028 and embedded newlines arrive unchanged.',
  async (context) => {
    const build = (from: string): JSONRPCMessage[] => [
      ...UNICODE_SAMPLES.map((text, index) => notification('test/unicode', { index, text, from })),
      request(`ünïcödé-id-${from}-😀`, 'test/unicode-request', {
        'ключ 🔑': 'значение',
        'key\nwith newline': UNICODE_SAMPLES,
        nested: { '\u2028': ['\u2029', { 'e\u0301': 'é' }] },
      }),
    ];
    const fromClient = build('client');
    const fromServer = build('server');
    context.step('sending unicode samples each way');
    await Promise.all([
      ...fromClient.map((message) => context.client.send(message)),
      ...fromServer.map((message) => context.server.send(message)),
      context.server.waitForMessages(fromClient.length),
      context.client.waitForMessages(fromServer.length),
    ]);
    await context.settle();
    expectSame(context, 'messages from the client', fromClient, context.server.received);
    expectSame(context, 'messages from the server', fromServer, context.client.received);
  },
);

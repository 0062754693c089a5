import { type RequestId, validateMessage } from '@x/protocol';
import fc from 'fast-check';

/**
 * Hostile input for a server: one message (or non-message) a client could send, and what a correct
 * server owes in return. Ids are assigned when the probe is sent (`ProbeTemplate.build`), so every
 * request of a connection is distinguishable and the answers can be counted per id.
 */
export interface Probe {
  /** Which generator made it (a name from `GENERATORS`). */
  readonly generator: GeneratorName;
  /** The serialized messages (or non-messages), sent in order, each without a trailing newline. */
  readonly texts: readonly string[];
  /** Ids that must each get exactly as many responses as they appear here. */
  readonly answers: readonly RequestId[];
  /** Whether the server must refuse the whole text (a response with id null, or an HTTP 4xx). */
  readonly refused: boolean;
  /** The JSON-RPC method, when the text is a well-formed request or notification. */
  readonly method: string | undefined;
  /** `params.name` of a well-formed `tools/call`. */
  readonly toolName: string | undefined;
  /** A valid call: its answer must be a result, not an error. */
  readonly succeeds?: boolean | undefined;
}

/** What fast-check generates: a probe still waiting for its ids (so shrinking never reuses one). */
export interface ProbeTemplate {
  readonly generator: GeneratorName;
  build(ids: IdSource): Probe;
}

/** Fresh request ids for one connection; `weird` may propose an id, used only if still unused. */
export interface IdSource {
  fresh(): RequestId;
  weird(candidate: RequestId): RequestId;
}

/** An `IdSource` over one connection's history. */
export function createIdSource(prefix: string): IdSource {
  const used = new Set<RequestId>();
  let next = 0;
  const fresh = (): RequestId => {
    const id = next % 2 === 0 ? `${prefix}-${next}` : 1_000_000 + next;
    next++;
    used.add(id);
    return id;
  };
  return {
    fresh,
    weird: (candidate) => {
      if (used.has(candidate)) return fresh();
      used.add(candidate);
      return candidate;
    },
  };
}

/** Names from the wire that index tables (issue #24 item 12): must be looked up as own properties. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '__defineGetter__',
] as const;

export const GENERATORS = [
  'valid-call',
  'unknown-method',
  'arbitrary-params',
  'non-object-params',
  'prototype-names',
  'weird-ids',
  'not-json',
  'not-a-message',
  'deep-nesting',
  'noise',
  'large-call',
  'duplicate-id',
  'unencodable-result',
] as const;

export type GeneratorName = (typeof GENERATORS)[number];

const request = (id: RequestId, method: string, params?: unknown): Record<string, unknown> =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

function answered(generator: GeneratorName, message: Record<string, unknown>, answers: RequestId[]): Probe {
  const params = message['params'];
  const name =
    typeof params === 'object' && params !== null && typeof (params as { name?: unknown }).name === 'string'
      ? (params as { name: string }).name
      : undefined;
  return {
    generator,
    texts: [JSON.stringify(message)],
    answers,
    refused: false,
    method: typeof message['method'] === 'string' ? message['method'] : undefined,
    toolName: message['method'] === 'tools/call' ? name : undefined,
  };
}

function refusedText(generator: GeneratorName, text: string): Probe {
  return { generator, texts: [text], answers: [], refused: true, method: undefined, toolName: undefined };
}

/** Text without line breaks: stdio frames by `\n`, and a blank line is no message at all. */
const lineSafe = (text: string): string => text.replace(/[\r\n\u2028\u2029]/g, ' ');

function isMessage(value: unknown): boolean {
  try {
    validateMessage(value);
    return true;
  } catch {
    return false;
  }
}

function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
}

export interface HostileOptions {
  /** Include large inputs (payloads up to ~1 MiB, nesting a million deep). */
  large: boolean;
  /** Which generators to draw from. */
  generators: readonly GeneratorName[];
}

const KNOWN_TOOLS = ['echo', 'slow'] as const;

/** One hostile probe template. */
export function probeArbitrary(options: HostileOptions): fc.Arbitrary<ProbeTemplate> {
  const all: Record<GeneratorName, fc.Arbitrary<ProbeTemplate>> = {
    'valid-call': fc
      .record({ tool: fc.constantFrom(...KNOWN_TOOLS), text: fc.string({ maxLength: 64 }) })
      .map(({ tool, text }) => ({
        generator: 'valid-call',
        build: (ids) => {
          const id = ids.fresh();
          const args = tool === 'slow' ? { ms: text.length % 20 } : { text };
          return {
            ...answered('valid-call', request(id, 'tools/call', { name: tool, arguments: args }), [id]),
            succeeds: true,
          };
        },
      })),
    'unknown-method': fc
      .oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('tools/cal', 'resources/read', 'ping', 'logging/setLevel'),
      )
      .map((method) => ({
        generator: 'unknown-method',
        build: (ids) => {
          const id = ids.fresh();
          return answered('unknown-method', request(id, method), [id]);
        },
      })),
    'arbitrary-params': fc
      .record({
        method: fc.constantFrom(
          'tools/call',
          'tools/list',
          'prompts/get',
          'resources/read',
          'completion/complete',
          'ping',
        ),
        params: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })),
      })
      .map(({ method, params }) => ({
        generator: 'arbitrary-params',
        build: (ids) => {
          const id = ids.fresh();
          return answered('arbitrary-params', request(id, method, params), [id]);
        },
      })),
    'non-object-params': fc
      .record({
        method: fc.constantFrom('tools/call', 'tools/list', 'ping'),
        params: fc.oneof(
          fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
          fc.string(),
          fc.integer(),
          fc.boolean(),
          fc.constant(null),
        ),
      })
      .map(({ method, params }) => ({
        generator: 'non-object-params',
        build: (ids) => {
          const id = ids.fresh();
          return answered('non-object-params', request(id, method, params), [id]);
        },
      })),
    'prototype-names': fc
      .record({
        name: fc.constantFrom(...PROTOTYPE_NAMES),
        where: fc.constantFrom('tool', 'method', 'argument', 'prompt'),
      })
      .map(({ name, where }) => ({
        generator: 'prototype-names',
        build: (ids) => {
          const id = ids.fresh();
          const message =
            where === 'tool'
              ? request(id, 'tools/call', { name, arguments: {} })
              : where === 'method'
                ? request(id, name, {})
                : where === 'prompt'
                  ? request(id, 'prompts/get', { name })
                  : request(id, 'completion/complete', {
                      ref: { type: 'ref/prompt', name: 'p' },
                      argument: { name, value: 'a' },
                    });
          return answered('prototype-names', message, [id]);
        },
      })),
    'weird-ids': fc
      .oneof(
        fc.constantFrom<RequestId>(
          '',
          '__proto__',
          'constructor',
          'toString',
          '0',
          'null',
          '\u0000',
          '🙂',
          0,
          -1,
          Number.MAX_SAFE_INTEGER,
          -Number.MAX_SAFE_INTEGER,
        ),
        fc.string({ maxLength: 30 }),
        fc.integer(),
      )
      .map((candidate) => ({
        generator: 'weird-ids',
        build: (ids) => {
          const id = ids.weird(candidate);
          return answered('weird-ids', request(id, 'ping'), [id]);
        },
      })),
    'not-json': fc
      .string({ minLength: 1, maxLength: 60 })
      .map(lineSafe)
      .filter((text) => {
        if (text.trim() === '') return false;
        try {
          JSON.parse(text);
          return false;
        } catch {
          return true;
        }
      })
      .map((text) => ({ generator: 'not-json', build: () => refusedText('not-json', text) })),
    'not-a-message': fc
      .oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), method: fc.jsonValue({ maxDepth: 1 }) }),
        fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
      )
      .map((value) => {
        // A readable id would make the refusal carry it: strip it so "refused with id null" is the rule.
        if (typeof value === 'object' && value !== null && !Array.isArray(value))
          delete (value as { id?: unknown }).id;
        return value;
      })
      .filter((value) => !isMessage(value))
      .map((value) => ({
        generator: 'not-a-message',
        build: () => refusedText('not-a-message', JSON.stringify(value)),
      })),
    'deep-nesting': fc
      .record({
        depth: options.large
          ? fc.integer({ min: 129, max: 1_000_000 })
          : fc.integer({ min: 129, max: 5_000 }),
        kind: fc.constantFrom<'array' | 'object'>('array', 'object'),
      })
      // Objects cost 6 bytes a level: capped so every text stays under the 4 MiB message limits (a longer
      // one is a size refusal, and closes a WebSocket with 1009 by design).
      .map(({ depth, kind }) => ({
        generator: 'deep-nesting',
        build: () =>
          refusedText('deep-nesting', nested(kind === 'object' ? Math.min(depth, 600_000) : depth, kind)),
      })),
    noise: fc
      .oneof(
        fc.record({
          jsonrpc: fc.constant('2.0'),
          method: fc.string({ maxLength: 30 }),
          params: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
        }),
        fc.record({
          jsonrpc: fc.constant('2.0'),
          method: fc.constant('notifications/cancelled'),
          params: fc.record({ requestId: fc.oneof(fc.string(), fc.integer()) }),
        }),
        fc.record({
          jsonrpc: fc.constant('2.0'),
          id: fc.oneof(fc.string(), fc.integer()),
          result: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
        }),
        fc.record({
          jsonrpc: fc.constant('2.0'),
          id: fc.oneof(fc.string(), fc.integer()),
          error: fc.record({ code: fc.integer(), message: fc.string() }),
        }),
      )
      .filter(isMessage)
      .map((message) => ({
        generator: 'noise',
        // Notifications and stray responses are never answered.
        build: () => ({
          generator: 'noise',
          texts: [JSON.stringify(message)],
          answers: [],
          refused: false,
          method: 'method' in message ? String(message.method) : undefined,
          toolName: undefined,
        }),
      })),
    'large-call': fc.integer({ min: 1, max: options.large ? 1024 * 1024 : 16 * 1024 }).map((length) => ({
      generator: 'large-call',
      build: (ids) => {
        const id = ids.fresh();
        const call = request(id, 'tools/call', { name: 'echo', arguments: { text: 'x'.repeat(length) } });
        return { ...answered('large-call', call, [id]), succeeds: true };
      },
    })),
    'duplicate-id': fc.constant({
      generator: 'duplicate-id',
      build: (ids) => {
        // The original (a slow tool, still in flight) and the duplicate: each gets one answer (issue #24
        // item 10: "Answer the duplicate with -32600 and keep the original's routing").
        const id = ids.fresh();
        const original = JSON.stringify(request(id, 'tools/call', { name: 'slow', arguments: { ms: 30 } }));
        const duplicate = JSON.stringify(request(id, 'tools/call', { name: 'slow', arguments: { ms: 30 } }));
        return {
          generator: 'duplicate-id',
          texts: [original, duplicate],
          answers: [id, id],
          refused: false,
          method: 'tools/call',
          toolName: 'slow',
        };
      },
    }),
    'unencodable-result': fc.constant({
      generator: 'unencodable-result',
      build: (ids) => {
        const id = ids.fresh();
        return answered('unencodable-result', request(id, 'tools/call', { name: 'bigint', arguments: {} }), [
          id,
        ]);
      },
    }),
  };
  return fc.oneof(...options.generators.map((name) => all[name]));
}

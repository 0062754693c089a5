import { framesFor, type ReplyPlan } from './hostile-reply.js';

/** What a hostile fake server answers to one message it received. */
export interface FakeAnswer {
  frames: string[];
  plan: ReplyPlan | undefined;
}

const INIT_RESULT = (version: string) => ({
  protocolVersion: version,
  capabilities: { tools: {} },
  serverInfo: { name: 'hostile-fake', version: '1.0.0' },
});

/**
 * The message logic every fake server shares: `initialize` is answered properly (legacy era, the
 * version the client asked for), a `tools/call` carrying `arguments.plan` is answered by that plan,
 * other requests get `{}`, and notifications and responses get nothing.
 */
export function answer(text: string): FakeAnswer {
  let message: {
    id?: unknown;
    method?: unknown;
    params?: { protocolVersion?: unknown; arguments?: { plan?: ReplyPlan } };
  };
  try {
    message = JSON.parse(text);
  } catch {
    return { frames: [], plan: undefined };
  }
  if (
    typeof message !== 'object' ||
    message === null ||
    Array.isArray(message) ||
    !('id' in message) ||
    !('method' in message)
  ) {
    return { frames: [], plan: undefined };
  }
  const id = message.id;
  if (message.method === 'initialize') {
    const version =
      typeof message.params?.protocolVersion === 'string' ? message.params.protocolVersion : '2025-11-25';
    return {
      frames: [JSON.stringify({ jsonrpc: '2.0', id, result: INIT_RESULT(version) })],
      plan: undefined,
    };
  }
  const plan = message.method === 'tools/call' ? message.params?.arguments?.plan : undefined;
  if (plan !== undefined) return { frames: framesFor(plan, id), plan };
  return { frames: [JSON.stringify({ jsonrpc: '2.0', id, result: {} })], plan: undefined };
}

import { describe, expect, it } from 'vitest';
import { RequestStateCodec } from '../src/modern/request-state.js';

// Several processes share one requestState key (spec 2026-07-28 basic/patterns/mrtr: the server "MUST
// ... verify the integrity of requestState"); rotating it must not break a client mid-round.
const binding = { method: 'tools/call', target: 'deploy', arguments: { env: 'prod' }, principal: 'alice' };

describe('requestState key rotation (previousKeys)', () => {
  it('a state sealed on one process opens on another with the same key', async () => {
    const state = await new RequestStateCodec({ key: 'shared-key-1' }).seal(binding, {
      ok: { action: 'accept' },
    });
    expect(await new RequestStateCodec({ key: 'shared-key-1' }).open(state, binding)).toEqual({
      ok: { action: 'accept' },
    });
  });

  it('after rotation the old key still opens states (never seals them); without it they are refused', async () => {
    const sealedOld = await new RequestStateCodec({ key: 'key-1' }).seal(binding, { n: 1 });
    const rotated = new RequestStateCodec({ key: 'key-2', previousKeys: ['key-1'] });
    expect(await rotated.open(sealedOld, binding)).toEqual({ n: 1 });
    const sealedNew = await rotated.seal(binding, { n: 2 });
    // Sealed with the new key: a process that only knows the old key refuses it; one that knows both opens it.
    await expect(new RequestStateCodec({ key: 'key-1' }).open(sealedNew, binding)).rejects.toThrow(
      /integrity check failed/,
    );
    expect(
      await new RequestStateCodec({ key: 'key-1', previousKeys: ['key-2'] }).open(sealedNew, binding),
    ).toEqual({
      n: 2,
    });
    await expect(new RequestStateCodec({ key: 'key-2' }).open(sealedOld, binding)).rejects.toThrow(
      /integrity check failed/,
    );
    await expect(
      new RequestStateCodec({ key: 'key-3', previousKeys: ['key-4', 'key-5'] }).open(sealedOld, binding),
    ).rejects.toThrow(/integrity check failed/);
  });
});

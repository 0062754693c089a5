import { afterEach, describe, expect, it } from 'vitest';
import { renamedOption } from '../src/transport-kit.js';

type Options = { maxMessageBytes?: number | undefined; maxLineBytes?: number | undefined };

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

async function warningsOf(run: () => void): Promise<Error[]> {
  process.on('warning', onWarning);
  run();
  // Node emits 'warning' on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  return [...warnings];
}

describe('renamedOption (issue #36: old option names keep working and warn)', () => {
  it('takes the current name first and never warns for it', async () => {
    const seen = await warningsOf(() => {
      expect(
        renamedOption<Options, 'maxMessageBytes', 'maxLineBytes'>(
          { maxMessageBytes: 5, maxLineBytes: 9 },
          'maxMessageBytes',
          'maxLineBytes',
          'TestA',
        ),
      ).toBe(5);
      expect(
        renamedOption<Options, 'maxMessageBytes', 'maxLineBytes'>(
          {},
          'maxMessageBytes',
          'maxLineBytes',
          'TestA',
        ),
      ).toBeUndefined();
    });
    expect(seen).toEqual([]);
  });

  it('honours the old name and warns once per owner, naming both names', async () => {
    const seen = await warningsOf(() => {
      expect(
        renamedOption<Options, 'maxMessageBytes', 'maxLineBytes'>(
          { maxLineBytes: 7 },
          'maxMessageBytes',
          'maxLineBytes',
          'TestB',
        ),
      ).toBe(7);
      expect(
        renamedOption<Options, 'maxMessageBytes', 'maxLineBytes'>(
          { maxLineBytes: 8 },
          'maxMessageBytes',
          'maxLineBytes',
          'TestB',
        ),
      ).toBe(8);
      renamedOption<Options, 'maxMessageBytes', 'maxLineBytes'>(
        { maxLineBytes: 8 },
        'maxMessageBytes',
        'maxLineBytes',
        'TestC',
      );
    });
    expect(seen.map((warning) => warning.name)).toEqual(['DeprecationWarning', 'DeprecationWarning']);
    expect((seen[0] as Error & { code?: string }).code).toBe('XMCP_RENAMED_OPTION');
    expect(seen[0]?.message).toMatch(/^TestB: the option maxLineBytes is deprecated .* use maxMessageBytes$/);
    expect(seen[1]?.message).toMatch(/^TestC:/);
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeArguments } from '../src/output/argument-summary.js';
import { ContentRenderer } from '../src/output/content-renderer.js';
import { ProgressBar } from '../src/output/progress-bar.js';
import { sanitize } from '../src/output/sanitize.js';
import { colorEnabled, createStyle, stripAnsi } from '../src/output/style.js';
import { renderTable } from '../src/output/table.js';

const plain = createStyle(false);
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('colors', () => {
  it('are off for NO_COLOR and non-TTY streams, on for TTYs and FORCE_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('wrap text in ANSI codes only when enabled', () => {
    expect(createStyle(true).bold('x')).toBe('\u001b[1mx\u001b[22m');
    expect(plain.bold('x')).toBe('x');
    expect(stripAnsi(createStyle(true).red('err'))).toBe('err');
  });
});

describe('renderTable', () => {
  it('aligns columns and flattens newlines', () => {
    const table = renderTable({
      headers: ['NAME', 'DESCRIPTION'],
      rows: [
        ['a', 'first\nline'],
        ['longer', ''],
      ],
      style: plain,
    });
    expect(table).toBe('NAME    DESCRIPTION\na       first line\nlonger\n');
  });

  it('cuts the last column to the terminal width', () => {
    const table = renderTable({
      headers: ['N', 'D'],
      rows: [['a', 'x'.repeat(100)]],
      style: plain,
      width: 40,
    });
    expect(table.split('\n')[1]).toHaveLength(40);
    expect(table.split('\n')[1]?.endsWith('…')).toBe(true);
  });
});

describe('ProgressBar.format', () => {
  it('shows a bar with a percentage, or a count without a total', () => {
    expect(ProgressBar.format({ progress: 50, total: 100, message: 'half' }, 10, plain)).toBe(
      '[█████·····]  50% half',
    );
    expect(ProgressBar.format({ progress: 3 }, 10, plain)).toBe('… 3');
  });

  it('redraws in place and clears itself', () => {
    let written = '';
    const stream = {
      write: (chunk: string) => {
        written += chunk;
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    const bar = new ProgressBar({ stream, style: plain, width: 4 });
    bar.update({ progress: 1, total: 4 });
    bar.clear();
    expect(written).toBe('\r\u001b[2K[█···]  25%\r\u001b[2K');
  });
});

describe('ContentRenderer', () => {
  it('renders text, binary as type + size, resources with their URI', async () => {
    const renderer = new ContentRenderer({ style: plain, namePrefix: 'tool' });
    expect(await renderer.render({ type: 'text', text: 'hi' })).toBe('hi');
    expect(await renderer.render({ type: 'image', data: PNG, mimeType: 'image/png' })).toBe(
      '[image image/png, 70 bytes]',
    );
    expect(await renderer.render({ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' })).toBe(
      '[audio audio/wav, 3 bytes]',
    );
    expect(
      await renderer.render({
        type: 'resource',
        resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' },
      }),
    ).toBe('[resource file:///a.txt text/plain]\nA');
    expect(await renderer.render({ type: 'resource_link', uri: 'file:///b', name: 'b' })).toBe(
      '[link file:///b "b"]',
    );
  });

  it('saves binary content with --out, named after the tool or the resource', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-mcp-render-'));
    try {
      const renderer = new ContentRenderer({ style: plain, namePrefix: 'shot', outDir: dir });
      expect(await renderer.render({ type: 'image', data: PNG, mimeType: 'image/png' })).toBe(
        `[image image/png, 70 bytes → ${join(dir, 'shot-1.png')}]`,
      );
      await renderer.resource({ uri: 'file:///logo.png', blob: PNG, mimeType: 'image/png' });
      expect((await readFile(join(dir, 'logo.png'))).length).toBe(70);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('summarizeArguments', () => {
  it('stars required arguments and names their types', () => {
    expect(
      summarizeArguments({
        type: 'object',
        properties: {
          q: { type: 'string' },
          n: { type: ['integer', 'null'] },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['q'],
      }),
    ).toBe('q*: string, n: integer, tags: string[]');
    expect(summarizeArguments({ type: 'object' })).toBe('');
  });
});

describe('sanitize', () => {
  it('strips terminal escapes and control characters from server text, keeping tabs and newlines', () => {
    expect(sanitize('a\u001b[2J\u001b]0;owned\u0007b\tc\nd\u009b31m')).toBe('a[2J]0;ownedb\tc\nd31m');
  });

  it('applies to text content only when asked (a terminal), always to URIs', async () => {
    const raw = new ContentRenderer({ style: plain, namePrefix: 't' });
    expect(await raw.render({ type: 'text', text: 'x\u001b[31m' })).toBe('x\u001b[31m');
    const tty = new ContentRenderer({ style: plain, namePrefix: 't', sanitizeText: true });
    expect(await tty.render({ type: 'text', text: 'x\u001b[31m' })).toBe('x[31m');
    expect(await raw.resource({ uri: 'a\u001bb', text: 't' })).toBe('[resource ab]\nt');
  });
});

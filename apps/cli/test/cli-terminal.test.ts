import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, serve } from './helpers/cli-process.js';
import { HAS_SCRIPT, runInTerminal } from './helpers/in-terminal.js';

let url = '';

beforeAll(async () => {
  assertBuilt();
  if (HAS_SCRIPT) ({ url } = await serve('http'));
});
afterAll(killAll);

describe.skipIf(!HAS_SCRIPT)('x-mcp at a terminal', () => {
  for (const era of [[], ['--legacy']]) {
    it(`answers an elicitation field by field ${era.join(' ')}`, async () => {
      const { code, screen } = await runInTerminal(
        ['call', 'test_elicitation', 'message=Who are you?', ...era, url],
        ['', 'ada', 'not-an-email', 'ada@example.com'],
      );
      expect(code).toBe(0);
      expect(screen).toContain('? The server asks: Who are you?');
      expect(screen).toContain("username* (User's username): ada");
      expect(screen).toContain('enter a valid email');
      expect(screen).toContain(
        'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      );
    });
  }

  it('declines when the user says so', async () => {
    const { screen } = await runInTerminal(['call', 'test_elicitation', 'message=Hi', url], ['d']);
    expect(screen).toContain('User response: action=decline');
  });

  it('Ctrl-C inside a form cancels the elicitation, not the whole run', async () => {
    const { code, screen } = await runInTerminal(
      ['call', 'test_elicitation', 'message=Hi', url],
      ['', '\u0003'],
    );
    expect(code).toBe(0);
    expect(screen).toContain('User response: action=cancel');
  });

  it('draws a progress bar on stderr for a call that reports progress', async () => {
    const { code, screen } = await runInTerminal(['call', 'test_tool_with_progress', url]);
    expect(code).toBe(0);
    expect(screen).toMatch(/\[█+·*\]\s+\d+% Completed step/);
    // The bar is erased (erase-line) before the result is printed, so the last line is only the result.
    expect(screen).toContain('\u001b[2K');
    const lastLine = screen.trimEnd().split('\n').at(-1) ?? '';
    expect(lastLine.split('\u001b[2K').at(-1)).not.toContain('█');
  });
});

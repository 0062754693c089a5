import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../src/elicitation/form-field.js';
import { FormPrompter } from '../src/elicitation/form-prompter.js';
import { LineReader } from '../src/elicitation/line-reader.js';
import { createStyle } from '../src/output/style.js';

/** A prompter reading typed-ahead lines, as a person at a terminal would answer. */
function prompter(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let transcript = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    transcript += chunk;
  });
  const reader = new LineReader({ input, output });
  input.write(lines.map((line) => `${line}\n`).join(''));
  return {
    prompter: new FormPrompter({ reader, output, style: createStyle(false) }),
    transcript: () => transcript,
    end: () => input.end(),
    close: () => reader.close(),
  };
}

const form = {
  message: 'Tell me about you',
  requestedSchema: {
    type: 'object' as const,
    properties: {
      name: { type: 'string' as const, description: 'Your name', minLength: 2 },
      age: { type: 'integer' as const, minimum: 0 },
      status: { type: 'string' as const, enum: ['active', 'inactive'], default: 'active' },
      color: {
        type: 'string' as const,
        oneOf: [
          { const: 'r', title: 'Red' },
          { const: 'g', title: 'Green' },
        ],
      },
      verified: { type: 'boolean' as const },
      picks: {
        type: 'array' as const,
        items: { type: 'string' as const, enum: ['a', 'b', 'c'] },
        maxItems: 2,
      },
    },
    required: ['name', 'age'],
  },
};

describe('interactive elicitation (form mode)', () => {
  it('asks field by field, re-asking until an answer fits the schema', async () => {
    const p = prompter(['', 'A', 'Ada', 'old', '-1', '36', '', 'green', 'yes', '1,3']);
    const result = await p.prompter.prompt(form);
    p.close();
    expect(result).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, color: 'g', verified: true, picks: ['a', 'c'] },
    });
    const transcript = p.transcript();
    expect(transcript).toContain('? The server asks: Tell me about you');
    expect(transcript).toContain('name* (Your name): ');
    expect(transcript).toContain('at least 2 characters');
    expect(transcript).toContain('enter a number');
    expect(transcript).toContain('at least 0');
    expect(transcript).toContain('1) active');
    expect(transcript).toContain('2) Green (g)');
    expect(transcript).toContain('choice [active]: ');
  });

  it('required fields without a default insist on an answer', async () => {
    const p = prompter(['a', '', 'Bo', '', '5']);
    const result = await p.prompter.prompt({
      message: 'm',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, n: { type: 'number' } },
        required: ['name', 'n'],
      },
    });
    p.close();
    expect(result).toEqual({ action: 'accept', content: { name: 'Bo', n: 5 } });
    expect(p.transcript().match(/required/g)).toHaveLength(2);
  });

  it('lets the user decline or cancel', async () => {
    const declined = prompter(['d']);
    expect(await declined.prompter.prompt(form)).toEqual({ action: 'decline' });
    declined.close();
    const cancelled = prompter(['cancel']);
    expect(await cancelled.prompter.prompt(form)).toEqual({ action: 'cancel' });
    cancelled.close();
  });

  it('shows the server text without terminal escapes', async () => {
    const p = prompter(['d']);
    await p.prompter.prompt({
      message: 'Approve?\u001b[2K\u001b[1A(looks harmless)',
      requestedSchema: { type: 'object', properties: {} },
    });
    p.close();
    expect(p.transcript()).toContain('Approve?[2K[1A(looks harmless)');
    expect(p.transcript()).not.toContain('\u001b');
  });

  it('cancels when input ends mid-form (Ctrl-D)', async () => {
    const p = prompter(['', 'Ada']);
    const answer = p.prompter.prompt(form);
    p.end();
    expect(await answer).toEqual({ action: 'cancel' });
  });
});

describe('parseAnswer', () => {
  const field = (schema: Record<string, unknown>) => ({ name: 'f', schema, required: false });
  it('types answers by the field schema', () => {
    expect(parseAnswer(field({ type: 'boolean' }), 'N')).toEqual({ ok: true, value: false });
    expect(parseAnswer(field({ type: 'number', maximum: 1 }), '2')).toEqual({
      ok: false,
      reason: 'at most 1',
    });
    expect(parseAnswer(field({ type: 'integer' }), '2.5')).toMatchObject({ ok: false });
    expect(parseAnswer(field({ type: 'string', format: 'email' }), 'nope')).toMatchObject({ ok: false });
    expect(parseAnswer(field({ type: 'string', format: 'email' }), 'a@b.c')).toEqual({
      ok: true,
      value: 'a@b.c',
    });
    expect(parseAnswer(field({ type: 'string', enum: ['x'], enumNames: ['Ex'] }), 'ex')).toEqual({
      ok: true,
      value: 'x',
    });
    expect(parseAnswer(field({ type: 'string' }), '   ')).toEqual({ ok: true, value: undefined });
    expect(
      parseAnswer(
        field({ type: 'array', minItems: 2, items: { anyOf: [{ const: 'v1', title: 'One' }] } }),
        'One',
      ),
    ).toEqual({ ok: false, reason: 'choose at least 2' });
  });
});

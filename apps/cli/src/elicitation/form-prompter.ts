import type { ElicitRequestFormParams, ElicitResult } from '@x/protocol';
import type { Style } from '../output/style.js';
import { type FieldValue, type FormField, multiChoices, parseAnswer, singleChoices } from './form-field.js';
import { InputClosedError, type LineReader } from './line-reader.js';
import { sanitize } from '../output/sanitize.js';

export interface FormPrompterOptions {
  readonly reader: LineReader;
  /** Where questions go (stderr: stdout stays for results). */
  readonly output: NodeJS.WritableStream;
  readonly style: Style;
}

function hint(field: FormField): string {
  const { schema } = field;
  const parts: string[] = [];
  const description = typeof schema['description'] === 'string' ? schema['description'] : undefined;
  if (description !== undefined) parts.push(description);
  if (schema['type'] === 'boolean') parts.push('yes/no');
  if (schema['type'] === 'integer' || schema['type'] === 'number') parts.push(String(schema['type']));
  if (schema['type'] === 'array') parts.push('comma-separated');
  if (typeof schema['format'] === 'string') parts.push(schema['format']);
  return parts.length === 0 ? '' : sanitize(` (${parts.join(', ')})`);
}

function defaultOf(field: FormField): string {
  const value = field.schema['default'];
  if (value === undefined) return '';
  const shown =
    typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : Array.isArray(value)
        ? value.join(',')
        : String(value);
  return sanitize(` [${shown}]`);
}

/**
 * Asks a person, field by field, for what a form-mode elicitation requests: first whether to answer at
 * all (decline and cancel are the user's right, 2025-11-25 client/elicitation "User Interaction"), then
 * each field with its description, choices and default, re-asking until the answer fits the schema.
 * Ctrl-C or Ctrl-D cancels.
 *
 * @example
 * ```ts
 * const result = await new FormPrompter({ reader, output: process.stderr, style }).prompt(params, signal);
 * ```
 */
export class FormPrompter {
  readonly #options: FormPrompterOptions;

  constructor(options: FormPrompterOptions) {
    this.#options = options;
  }

  async prompt(params: ElicitRequestFormParams, signal?: AbortSignal): Promise<ElicitResult> {
    const { reader, output, style } = this.#options;
    output.write(`\n${style.bold(style.cyan('? The server asks:'))} ${sanitize(params.message)}\n`);
    try {
      const choice = (
        await reader.ask(`  Answer (a), decline (d) or cancel (c)? ${style.dim('[a]')} `, signal)
      )
        .trim()
        .toLowerCase();
      if (choice.startsWith('d')) return { action: 'decline' };
      if (choice.startsWith('c')) return { action: 'cancel' };
      const required = new Set(params.requestedSchema.required ?? []);
      const content: Record<string, FieldValue> = {};
      for (const [name, schema] of Object.entries(params.requestedSchema.properties)) {
        const field: FormField = {
          name,
          schema: schema as Record<string, unknown>,
          required: required.has(name),
        };
        const value = await this.#field(field, signal);
        if (value !== undefined) content[name] = value;
      }
      return { action: 'accept', content };
    } catch (error) {
      if (error instanceof InputClosedError) {
        output.write('\n');
        return { action: 'cancel' };
      }
      throw error;
    }
  }

  async #field(field: FormField, signal: AbortSignal | undefined): Promise<FieldValue | undefined> {
    const { reader, output, style } = this.#options;
    const title = sanitize(typeof field.schema['title'] === 'string' ? field.schema['title'] : field.name);
    const choices =
      field.schema['type'] === 'array' ? multiChoices(field.schema) : singleChoices(field.schema);
    if (choices.length > 0) {
      output.write(`  ${style.bold(title)}${field.required ? style.red('*') : ''}${hint(field)}\n`);
      choices.forEach((choice, i) => {
        output.write(
          `    ${style.cyan(String(i + 1))}) ${sanitize(choice.label)}${choice.label === choice.value ? '' : style.dim(` (${sanitize(choice.value)})`)}\n`,
        );
      });
    }
    const question =
      choices.length > 0
        ? `  ${style.dim('choice')}${style.dim(defaultOf(field))}: `
        : `  ${style.bold(title)}${field.required ? style.red('*') : ''}${hint(field)}${style.dim(defaultOf(field))}: `;
    for (;;) {
      const parsed = parseAnswer(field, await reader.ask(question, signal));
      if (!parsed.ok) {
        output.write(`  ${style.yellow(parsed.reason)}\n`);
        continue;
      }
      if (parsed.value === undefined && field.required && field.schema['default'] === undefined) {
        output.write(`  ${style.yellow('required')}\n`);
        continue;
      }
      return parsed.value;
    }
  }
}

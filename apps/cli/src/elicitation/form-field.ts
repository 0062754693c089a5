/**
 * One field of an elicitation form (2025-11-25 client/elicitation, "Requested Schema"): flat and
 * primitive — string (optionally an enum or a format), number/integer, boolean, or a multi-select array.
 */
export interface FormField {
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
  readonly required: boolean;
}

/** A choice of an enum field: the value sent back and the label shown. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

type Schema = Readonly<Record<string, unknown>>;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function titled(options: unknown): Choice[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((option: unknown) => {
    if (typeof option !== 'object' || option === null) return [];
    const { const: value, title } = option as Record<string, unknown>;
    return typeof value === 'string' ? [{ value, label: typeof title === 'string' ? title : value }] : [];
  });
}

/** The choices of a single-select field (`enum`, `enum` + `enumNames`, `oneOf`), empty for free text. */
export function singleChoices(schema: Schema): Choice[] {
  const names = strings(schema['enumNames']);
  const values = strings(schema['enum']);
  if (values.length > 0) return values.map((value, i) => ({ value, label: names[i] ?? value }));
  return titled(schema['oneOf']);
}

/** The choices of a multi-select field (`items.enum` or `items.anyOf`). */
export function multiChoices(schema: Schema): Choice[] {
  const items = schema['items'];
  if (typeof items !== 'object' || items === null) return [];
  const values = strings((items as Schema)['enum']);
  if (values.length > 0) return values.map((value) => ({ value, label: value }));
  return titled((items as Schema)['anyOf']);
}

/** A chosen value by its number (1-based) or by its value or label (case-insensitive). */
function pick(choices: readonly Choice[], answer: string): string | undefined {
  const index = /^\d+$/.test(answer) ? Number(answer) - 1 : -1;
  if (index >= 0 && index < choices.length) return choices[index]?.value;
  const lower = answer.toLowerCase();
  return choices.find((c) => c.value.toLowerCase() === lower || c.label.toLowerCase() === lower)?.value;
}

const FORMATS: Readonly<Record<string, RegExp>> = {
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:\S*$/i,
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
};

export type FieldValue = string | number | boolean | string[];

/**
 * Reads one typed answer for a field. `ok: false` carries the reason to show before asking again; an
 * empty answer is `undefined` (the caller applies the default or the required rule).
 *
 * @example
 * ```ts
 * parseAnswer({ name: 'age', schema: { type: 'integer', minimum: 0 }, required: true }, '42'); // { ok: true, value: 42 }
 * ```
 */
export function parseAnswer(
  field: FormField,
  answer: string,
): { ok: true; value: FieldValue | undefined } | { ok: false; reason: string } {
  const text = answer.trim();
  if (text === '') return { ok: true, value: undefined };
  const { schema } = field;
  switch (schema['type']) {
    case 'boolean': {
      if (/^(y|yes|true|1)$/i.test(text)) return { ok: true, value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, reason: 'answer yes or no' };
    }
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (!Number.isFinite(value)) return { ok: false, reason: 'enter a number' };
      if (schema['type'] === 'integer' && !Number.isInteger(value)) {
        return { ok: false, reason: 'enter a whole number' };
      }
      const { minimum, maximum } = schema;
      if (typeof minimum === 'number' && value < minimum) return { ok: false, reason: `at least ${minimum}` };
      if (typeof maximum === 'number' && value > maximum) return { ok: false, reason: `at most ${maximum}` };
      return { ok: true, value };
    }
    case 'array': {
      const choices = multiChoices(schema);
      const picked: string[] = [];
      for (const part of text
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')) {
        const value = choices.length === 0 ? part : pick(choices, part);
        if (value === undefined) return { ok: false, reason: `'${part}' is not one of the choices` };
        if (!picked.includes(value)) picked.push(value);
      }
      const { minItems, maxItems } = schema;
      if (typeof minItems === 'number' && picked.length < minItems) {
        return { ok: false, reason: `choose at least ${minItems}` };
      }
      if (typeof maxItems === 'number' && picked.length > maxItems) {
        return { ok: false, reason: `choose at most ${maxItems}` };
      }
      return { ok: true, value: picked };
    }
    default: {
      const choices = singleChoices(schema);
      if (choices.length > 0) {
        const value = pick(choices, text);
        return value === undefined
          ? { ok: false, reason: 'choose one of the listed options' }
          : { ok: true, value };
      }
      const { minLength, maxLength, format } = schema;
      if (typeof minLength === 'number' && text.length < minLength) {
        return { ok: false, reason: `at least ${minLength} characters` };
      }
      if (typeof maxLength === 'number' && text.length > maxLength) {
        return { ok: false, reason: `at most ${maxLength} characters` };
      }
      const pattern = typeof format === 'string' ? FORMATS[format] : undefined;
      if (pattern !== undefined && !pattern.test(text))
        return { ok: false, reason: `enter a valid ${format}` };
      return { ok: true, value: text };
    }
  }
}

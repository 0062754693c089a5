/**
 * Structural comparison of two JSON-like values that explains the first difference it finds, so a
 * failing scenario can say *where* a transport corrupted a message (`$.params.data[1048575]`), not just
 * that it did. Only JSON shapes matter here: primitives, arrays and plain objects.
 */
export function describeDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  if (typeof expected === 'string' && typeof actual === 'string') {
    return expected === actual ? undefined : describeStringDifference(expected, actual, path);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${kindOf(actual)}`;
    if (expected.length !== actual.length) {
      return `${path}: expected ${expected.length} elements, got ${actual.length}`;
    }
    for (let index = 0; index < expected.length; index += 1) {
      const difference = describeDifference(expected[index], actual[index], `${path}[${index}]`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path}: expected an object, got ${kindOf(actual)}`;
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key)) return `${path}: key ${JSON.stringify(key)} is missing`;
      const difference = describeDifference(expected[key], actual[key], `${path}[${JSON.stringify(key)}]`);
      if (difference !== undefined) return difference;
    }
    for (const key of Object.keys(actual)) {
      if (!Object.hasOwn(expected, key)) return `${path}: unexpected key ${JSON.stringify(key)}`;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${path}: expected ${preview(expected)}, got ${preview(actual)}`;
}

function describeStringDifference(expected: string, actual: string, path: string): string {
  let index = 0;
  while (index < expected.length && expected.charCodeAt(index) === actual.charCodeAt(index)) index += 1;
  const window = (text: string): string => JSON.stringify(text.slice(Math.max(0, index - 8), index + 8));
  return (
    `${path}: strings differ at UTF-16 index ${index} (expected length ${expected.length}, ` +
    `got ${actual.length}): expected …${window(expected)}…, got …${window(actual)}…`
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : preview(value);
}

/** Short, always-printable rendering of a value for error messages. */
export function preview(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  }
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 120 ? `${text.slice(0, 120)}…` : text;
  } catch {
    return String(value);
  }
}

import { closestName } from './closest-name.js';
import type { OptionSpec } from './option-spec.js';
import type { ParsedArgs } from './parsed-args.js';
import { UsageError } from './usage-error.js';

/** A lone dash followed by a digit is a negative number (`complete … -1`), not an option. */
const NEGATIVE_NUMBER = /^-\d/;

/**
 * Splits argv into command, positionals, options and the stdio server command after `--`. Options may
 * come anywhere before `--`, as `--name value`, `--name=value`, `-X value` or `-Xvalue`. Unknown options
 * and missing values are usage errors (with a "did you mean" when there is a near miss).
 *
 * @example
 * ```ts
 * parseArgs(['call', 'echo', 'text=hi', '--json', '--', 'node', 'server.js'], OPTIONS);
 * // { command: 'call', positionals: ['echo', 'text=hi'], flags: {'json'}, serverCommand: ['node', 'server.js'] }
 * ```
 */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byLong = new Map(specs.map((spec) => [spec.name, spec]));
  const byShort = new Map(
    specs.flatMap((spec) => (spec.short === undefined ? [] : [[spec.short, spec] as const])),
  );
  const words: string[] = [];
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  let serverCommand: string[] | undefined;

  const store = (spec: OptionSpec, value: string | undefined, written: string): void => {
    if (spec.value === undefined) {
      if (value !== undefined) throw new UsageError(`option ${written} takes no value`);
      flags.add(spec.name);
      return;
    }
    if (value === undefined) throw new UsageError(`option ${written} needs a value ${spec.value}`);
    const list = values.get(spec.name);
    if (list !== undefined && spec.repeatable === true) list.push(value);
    else values.set(spec.name, [value]);
  };

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    const takeNext = (): string | undefined => {
      const next = argv[i + 1];
      if (next === undefined || next === '--') return undefined;
      i++;
      return next;
    };
    if (token === '--') {
      serverCommand = argv.slice(i + 1);
      break;
    }
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      const name = token.slice(2, eq === -1 ? undefined : eq);
      const spec = byLong.get(name);
      if (spec === undefined)
        throw unknownOption(
          `--${name}`,
          [...byLong.keys()].map((n) => `--${n}`),
        );
      const inline = eq === -1 ? undefined : token.slice(eq + 1);
      store(spec, inline ?? (spec.value === undefined ? undefined : takeNext()), `--${name}`);
      continue;
    }
    if (token.startsWith('-') && token.length > 1 && !NEGATIVE_NUMBER.test(token)) {
      const letter = token.slice(1, 2);
      const spec = byShort.get(letter);
      if (spec === undefined)
        throw unknownOption(
          `-${letter}`,
          [...byShort.keys()].map((n) => `-${n}`),
        );
      const rest = token.slice(2);
      if (spec.value === undefined && rest !== '') {
        throw new UsageError(`option -${letter} takes no value (combined short flags are not supported)`);
      }
      store(spec, rest !== '' ? rest : spec.value === undefined ? undefined : takeNext(), `-${letter}`);
      continue;
    }
    words.push(token);
  }
  const [command, ...positionals] = words;
  return { command, positionals, values, flags, serverCommand };
}

function unknownOption(written: string, known: readonly string[]): UsageError {
  const guess = closestName(written, known);
  return new UsageError(`unknown option ${written}${guess === undefined ? '' : ` (did you mean ${guess}?)`}`);
}

import { AuthError } from './auth-error.js';

/**
 * A numeric limit from the options, or its default: a finite number of at least `min` (an integer when
 * `integer`), else `AuthError('invalid_options')` naming the option, so a typo fails at startup
 * instead of disabling a bound (`NaN` compares false with everything).
 *
 * @example
 * ```ts
 * const timeoutMs = limitOption('introspection timeoutMs', options.timeoutMs, DEFAULT_INTROSPECTION_TIMEOUT_MS, { min: 1 });
 * ```
 */
export function limitOption(
  name: string,
  value: number | undefined,
  fallback: number,
  rule: { min: number; integer?: boolean },
): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < rule.min ||
    (rule.integer === true && !Number.isInteger(value))
  )
    throw new AuthError(
      'invalid_options',
      `${name} must be a finite ${rule.integer === true ? 'integer' : 'number'} >= ${rule.min} (got ${String(value)})`,
    );
  return value;
}

/**
 * Whether `value` is an integer multiple of `divisor`, judged on the decimal numbers the JSON text
 * wrote rather than on their binary approximations: 0.3 is a multiple of 0.1 even though
 * 0.3 / 0.1 === 2.9999999999999996 in IEEE 754.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  if (Number.isInteger(quotient)) return true;
  // The quotient overflowed: fall back to fmod, which is exact in IEEE 754.
  if (!Number.isFinite(quotient)) return value % divisor === 0;
  const scale = 10 ** Math.max(decimalPlaces(value), decimalPlaces(divisor));
  const scaledValue = Math.round(value * scale);
  const scaledDivisor = Math.round(divisor * scale);
  if (Number.isSafeInteger(scaledValue) && Number.isSafeInteger(scaledDivisor) && scaledDivisor !== 0) {
    return scaledValue % scaledDivisor === 0;
  }
  // Too many significant digits for exact scaled arithmetic: accept a relative rounding error.
  return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient));
}

/** Digits after the decimal point in the shortest round-trip representation (`1.5e-7` → 8). */
function decimalPlaces(n: number): number {
  const text = String(n);
  const exponentAt = text.indexOf('e');
  const mantissa = exponentAt === -1 ? text : text.slice(0, exponentAt);
  const exponent = exponentAt === -1 ? 0 : Number(text.slice(exponentAt + 1));
  const dot = mantissa.indexOf('.');
  const fraction = dot === -1 ? 0 : mantissa.length - dot - 1;
  return Math.max(0, fraction - exponent);
}

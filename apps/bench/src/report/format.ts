/** Integers with thousands separators; small values with three significant digits. */
export function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

export function formatRatio(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

export function formatPercent(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${Math.round(value * 100)}%`;
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** A ratio that means something only when both sides exist and the divisor is positive. */
export function ratio(numerator: number | undefined, denominator: number | undefined): number | undefined {
  if (numerator === undefined || denominator === undefined || !(denominator > 0)) return undefined;
  return numerator / denominator;
}

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

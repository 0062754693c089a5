import { type Style, stripAnsi } from './style.js';

export interface TableOptions {
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly style: Style;
  /** Terminal width: the last column is cut to fit. Undefined (not a terminal): nothing is cut. */
  readonly width?: number | undefined;
}

/**
 * A plain aligned table: bold headers, two spaces between columns, one line per row (newlines inside a
 * cell become spaces).
 *
 * @example
 * ```ts
 * renderTable({ headers: ['NAME', 'DESCRIPTION'], rows: [['echo', 'Echoes']], style });
 * // "NAME  DESCRIPTION\necho  Echoes\n"
 * ```
 */
export function renderTable(options: TableOptions): string {
  const { headers, style, width } = options;
  const rows = options.rows.map((row) => row.map((cell) => cell.replace(/\s*\n\s*/g, ' ')));
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => stripAnsi(row[i] ?? '').length)),
  );
  const line = (cells: readonly string[], format: (text: string) => string = (t) => t): string => {
    let used = 0;
    const parts = cells.map((cell, i) => {
      const last = i === cells.length - 1;
      const pad = last ? '' : ' '.repeat((widths[i] ?? 0) - stripAnsi(cell).length + 2);
      let text = cell;
      if (last && width !== undefined && stripAnsi(text).length > width - used && width - used > 10) {
        text = `${stripAnsi(text).slice(0, width - used - 1)}…`;
      }
      used += stripAnsi(text).length + pad.length;
      return format(text) + pad;
    });
    return parts.join('').trimEnd();
  };
  return [line(headers, style.bold), ...rows.map((row) => line(row))].join('\n') + '\n';
}

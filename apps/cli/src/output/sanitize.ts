/** C0 controls except tab and newline, DEL, and C1 controls (CSI and friends). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from a server made safe for a terminal: escape sequences could otherwise recolor, move the
 * cursor, retitle the window, or disguise what an elicitation really asks. Tabs and newlines stay.
 *
 * @example
 * ```ts
 * sanitize('ok\u001b[2J'); // 'ok[2J'
 * ```
 */
export function sanitize(text: string): string {
  return text.replace(CONTROL, '');
}

/** `owner.deprecatedName` pairs already warned about in this process: each warns once. */
const warned = new Set<string>();

/**
 * The value of an option that was renamed: the current name wins; the old name still works for one minor
 * version and then warns once per process (a Node `DeprecationWarning` with code `XMCP_RENAMED_OPTION`, or
 * `console.warn` where there is no `process.emitWarning`), naming the owner, the old and the new name
 * (issue #36: one name per concept, old names keep working and warn).
 *
 * @example
 * ```ts
 * const maxMessageBytes =
 *   renamedOption(options, 'maxMessageBytes', 'maxLineBytes', 'StdioServerTransport') ?? DEFAULT_MAX_LINE_BYTES;
 * ```
 */
export function renamedOption<O extends object, K extends keyof O, D extends keyof O>(
  options: O,
  currentName: K,
  deprecatedName: D,
  owner: string,
): O[K] | O[D] | undefined {
  const current = options[currentName];
  if (current !== undefined) return current;
  const deprecated = options[deprecatedName];
  if (deprecated === undefined) return undefined;
  const key = `${owner}.${String(deprecatedName)}`;
  if (!warned.has(key)) {
    warned.add(key);
    const message = `${owner}: the option ${String(deprecatedName)} is deprecated and will be removed in the next minor version; use ${String(currentName)}`;
    const host = (globalThis as { process?: { emitWarning?: (message: string, options: object) => void } })
      .process;
    if (typeof host?.emitWarning === 'function') {
      host.emitWarning(message, { type: 'DeprecationWarning', code: 'XMCP_RENAMED_OPTION' });
    } else {
      console.warn(message);
    }
  }
  return deprecated;
}

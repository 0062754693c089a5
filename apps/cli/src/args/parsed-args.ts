/** A command line split into its parts, before any option is interpreted. */
export interface ParsedArgs {
  /** The first positional word (`tools`, `call`, …), if any. */
  readonly command: string | undefined;
  /** The positional words after the command, in order (the target URL is still among them). */
  readonly positionals: readonly string[];
  /** Values of options that take one, by long name, in the order given. */
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** Boolean flags that were given, by long name. */
  readonly flags: ReadonlySet<string>;
  /** Everything after `--`: the stdio server's command line. Undefined when there was no `--`. */
  readonly serverCommand: readonly string[] | undefined;
}

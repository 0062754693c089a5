/** One command-line option, as the parser and the help text see it. */
export interface OptionSpec {
  /** Long name without the dashes: `timeout` is `--timeout`. */
  readonly name: string;
  /** One letter: `H` is `-H`. */
  readonly short?: string | undefined;
  /** Placeholder of the value (`<ms>`); options without one are boolean flags. */
  readonly value?: string | undefined;
  /** May be given more than once; every value is kept in order. */
  readonly repeatable?: boolean | undefined;
  readonly description: string;
  /** A command's own wording of the description (`serve --transport` picks the server's transport). */
  readonly descriptions?: Readonly<Record<string, string>> | undefined;
  /** The commands it applies to; undefined means every command. */
  readonly commands?: readonly string[] | undefined;
}

/** A running `x-mcp serve`: its URL (none for stdio) and how to stop it. */
export interface ListeningServer {
  /** Printed on the first line of stdout so scripts can connect; undefined for stdio. */
  readonly url: string | undefined;
  /** Resolves when the server stops by itself (stdio: the client closed stdin). */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

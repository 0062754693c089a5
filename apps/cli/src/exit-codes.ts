/**
 * The process exit codes of `x-mcp`, distinct so scripts can tell "the server said no" from "you typed
 * it wrong" from "nothing answered".
 */
export const ExitCode = {
  Ok: 0,
  /** The server answered with a JSON-RPC error, a tool reported `isError`, or the request timed out. */
  ProtocolError: 1,
  /** The command line is wrong: unknown command or option, missing target or argument, bad value. */
  Usage: 2,
  /** No connection: refused, unreachable, the server process failed to start, or the connection dropped. */
  ConnectionFailure: 3,
  /** Interrupted with Ctrl-C (128 + SIGINT), except for `listen`, where Ctrl-C is the normal way out. */
  Interrupted: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

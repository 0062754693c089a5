#!/usr/bin/env node
import { runCli } from './run-cli.js';

// First Ctrl-C (or SIGTERM): cancel politely, close the connection, stop a stdio server. A second one
// means "now": exit at once (the stdio transport's exit hook still signals a spawned server).
const interrupt = new AbortController();
const onSignal = (signal: NodeJS.Signals): void => {
  if (interrupt.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
  interrupt.abort(new Error(`received ${signal}`));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// `x-mcp listen | head -3`: once the reader is gone there is nobody to tell anything; end quietly
// (a spawned stdio server is still stopped by its transport's exit hook).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const code = await runCli(process.argv.slice(2), { io: process, signal: interrupt.signal });

/** Resolves once everything written so far has been handed to the OS (matters for pipes). */
const flushed = (stream: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => {
    stream.write('', () => resolve());
  });
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// Idle keep-alive sockets and the like must not hold the process once the work is done.
process.exit(code);

import { performance } from 'node:perf_hooks';
import { ExitCode } from '../exit-codes.js';
import { type ClientCommand, expectPositionals } from './client-command.js';

/**
 * `x-mcp ping`: `ping` on the legacy era; 2026-07-28 removed it, and any request shows the server is
 * alive, so there it sends `server/discover`.
 */
export const ping: ClientCommand = (input) => {
  expectPositionals(input, { max: 0 });
  return async ({ session, terminal, options, signal }) => {
    const { client } = session;
    const method = client.era === 'modern' ? 'server/discover' : 'ping';
    const started = performance.now();
    if (method === 'ping') await client.ping({ signal });
    else await client.discover({ signal, fresh: true });
    const ms = Math.round((performance.now() - started) * 10) / 10;
    if (options.json) terminal.json({ ok: true, method, ms });
    else terminal.out(`pong from ${client.serverInfo?.name ?? 'server'} in ${ms} ms (${method})`);
    return ExitCode.Ok;
  };
};

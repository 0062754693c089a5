import type { Client, Subscription } from '@x/client';
import { ConnectionClosedError, HeartbeatTimeoutError } from '@x/protocol';
import { ExitCode } from '../exit-codes.js';
import { formatLog } from '../output/format-log.js';
import type { Terminal } from '../output/terminal.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { sanitize } from '../output/sanitize.js';

/** A timer that only keeps the process alive while it waits (the client's heartbeat timer does not). */
const KEEP_ALIVE_MS = 1 << 30;

/** Prints each notification as it arrives: a timestamped line, or one JSON object per line. */
function printer(terminal: Terminal, json: boolean) {
  return (method: string, params: unknown, detail = ''): void => {
    const time = new Date().toISOString();
    if (json) {
      terminal.json({ time, method, params: params ?? {} }, true);
      return;
    }
    const { style } = terminal;
    terminal.out(
      `${style.dim(time.slice(11, 23))} ${style.cyan(method)}${detail === '' ? '' : ` ${sanitize(detail)}`}`,
    );
  };
}

/** Routes the client's notification events to the printer; returns the unsubscribe functions. */
function watch(client: Client, terminal: Terminal, json: boolean): Array<() => void> {
  const print = printer(terminal, json);
  return [
    client.on('toolsListChanged', () => print('notifications/tools/list_changed', undefined)),
    client.on('promptsListChanged', () => print('notifications/prompts/list_changed', undefined)),
    client.on('resourcesListChanged', () => print('notifications/resources/list_changed', undefined)),
    client.on('resourceUpdated', (params) => print('notifications/resources/updated', params, params.uri)),
    client.on('log', (params) => print('notifications/message', params, formatLog(params, terminal.style))),
    client.on('elicitationComplete', (params) =>
      print('notifications/elicitation/complete', params, params.elicitationId),
    ),
  ];
}

/**
 * `x-mcp listen [--subscribe <uri>]…`: prints notifications until Ctrl-C (exit 0) or until the connection
 * drops (exit 3). Modern servers are asked through `subscriptions/listen` (2026-07-28
 * basic/patterns/subscriptions) for list changes and the `--subscribe` resources; on legacy ones the
 * notifications come on the session, `--subscribe` sends `resources/subscribe`, and the client's
 * heartbeat (`ping` every 10 s) notices a server that went away.
 */
export const listen: ClientCommand = (input) => {
  expectPositionals(input, { max: 0 });
  const uris = input.args.values.get('subscribe') ?? [];
  return async ({ session, terminal, options, signal }) => {
    const { client } = session;
    const unwatch = watch(client, terminal, options.json);
    let subscription: Subscription | undefined;
    const keepAlive = setInterval(() => {}, KEEP_ALIVE_MS);
    const previousOnerror = client.onerror;
    // The session's heartbeat (openSession's listenHeartbeat) reports a dead server here, then closes.
    let dead: HeartbeatTimeoutError | undefined;
    client.onerror = (error) => {
      if (error instanceof HeartbeatTimeoutError) dead = error;
      previousOnerror?.(error);
    };
    try {
      const ended = new Promise<ExitCode>((resolve, reject) => {
        signal.addEventListener('abort', () => resolve(ExitCode.Ok), { once: true });
        client.onclose = () => reject(dead ?? new ConnectionClosedError('the server closed the connection'));
      });
      // Raced below, or abandoned when setting up fails: either way never an unhandled rejection.
      ended.catch(() => {});
      if (client.era === 'modern') {
        subscription = client.listen(
          {
            toolsListChanged: true,
            promptsListChanged: true,
            resourcesListChanged: true,
            ...(uris.length === 0 ? {} : { resourceSubscriptions: [...uris] }),
          },
          { signal },
        );
        const stream = drain(subscription, terminal, signal);
        stream.catch(() => {});
        await Promise.race([subscription.acknowledged, stream, ended]);
        terminal.err(terminal.errStyle.dim(`Listening on subscriptions/listen (Ctrl-C to stop)`));
        return await Promise.race([ended, stream]);
      }
      for (const uri of uris) await client.subscribeResource({ uri }, { signal });
      terminal.err(terminal.errStyle.dim('Listening for notifications (Ctrl-C to stop)'));
      return await ended;
    } finally {
      client.onclose = undefined;
      client.onerror = previousOnerror;
      clearInterval(keepAlive);
      for (const off of unwatch) off();
      subscription?.close();
    }
  };
};

/**
 * Consumes the subscription (its notifications also reach the client's events, which print them); it
 * resolves when the server ends the stream.
 */
async function drain(subscription: Subscription, terminal: Terminal, signal: AbortSignal): Promise<ExitCode> {
  for await (const _ of subscription) {
    // Printed through the client's events.
  }
  if (!signal.aborted) terminal.err(terminal.errStyle.dim('The server ended the subscription.'));
  return ExitCode.Ok;
}

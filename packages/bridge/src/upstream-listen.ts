import type { Client } from '@x/client';

/** What a `subscriptions/listen` stream asks for (the `Client.listen` filter). */
export type ListenFilter = Parameters<Client['listen']>[0];

/**
 * Opens a `subscriptions/listen` stream on a 2026-07-28 upstream and resolves once the upstream
 * acknowledged it (rejects, the stream closed, when it refused). Nobody reads the stream: the `Client`
 * turns each of its notifications into an event (`toolsListChanged`, `resourceUpdated`, …) that
 * `UpstreamLink` already relays, so it is only drained, and nothing queues up. It ends when `signal`
 * aborts or the `Client` closes; the `Client` re-opens it after its transport reconnects.
 */
export async function followUpstream(
  client: Client,
  filter: ListenFilter,
  signal: AbortSignal,
): Promise<void> {
  const subscription = client.listen(filter, { signal });
  const drain = async (): Promise<void> => {
    for await (const notification of subscription) void notification;
  };
  void drain().catch(() => undefined);
  try {
    await subscription.acknowledged;
  } catch (error) {
    subscription.close();
    throw error;
  }
}

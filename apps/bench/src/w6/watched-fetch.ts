import { W6_AGENT_OPTIONS } from './agent-options.js';
import { Agent, fetch as undiciFetch } from 'undici';

/** The load process's connection pool for the SDK clients. */
const agent = new Agent(W6_AGENT_OPTIONS);

/**
 * A `fetch` for one SDK client that resolves `streamOpened` when the server answers a GET with 200: the
 * legacy Streamable HTTP GET stream the client opens by itself after `notifications/initialized`.
 */
export function watchedFetch(): { fetch: typeof fetch; streamOpened: Promise<void> } {
  let opened: () => void = () => {};
  const streamOpened = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const watched = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = (await undiciFetch(input as string, {
      ...(init as object),
      dispatcher: agent,
    })) as unknown as Response;
    if ((init?.method ?? 'GET') === 'GET' && response.status === 200) opened();
    return response;
  };
  return { fetch: watched as typeof fetch, streamOpened };
}

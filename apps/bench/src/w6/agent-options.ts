import type { Agent } from 'undici';

/**
 * The undici pool options of a W6 load process: no body or headers timeout (undici's default, 5 min,
 * would cut a stream the server keeps silent while the other sessions still connect) and a 60 s connect
 * timeout instead of 10 s, since 10,000 connects at once queue in the server's accept backlog.
 */
export const W6_AGENT_OPTIONS: Agent.Options = {
  bodyTimeout: 0,
  headersTimeout: 0,
  keepAliveTimeout: 600_000,
  connect: { timeout: 60_000 },
};

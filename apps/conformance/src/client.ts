// The conformance client: `node dist/client.js <url>`. The suite starts one process per scenario, names
// it in MCP_CONFORMANCE_SCENARIO and appends the mock server's URL as the last argument (CONFORMANCE.md
// §1). Exit 0 when the scenario's client side ran to the end; the suite itself judges the traffic.
import { authProviderFor } from './client/auth.js';
import { openSession, versionFromEnv } from './client/session.js';
import { SCENARIOS } from './client/scenarios.js';

async function main(): Promise<number> {
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  const url = process.argv.at(-1) ?? '';
  const handler = SCENARIOS.get(scenario);
  if (handler === undefined || !/^https?:\/\//.test(url)) {
    console.error(`usage: MCP_CONFORMANCE_SCENARIO=<scenario> node dist/client.js <url>`);
    console.error(`unknown scenario "${scenario}"; known: ${[...SCENARIOS.keys()].join(', ')}`);
    return 2;
  }
  const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as Record<string, unknown>;
  const session = await openSession(
    url,
    versionFromEnv(process.env['MCP_CONFORMANCE_PROTOCOL_VERSION']),
    await authProviderFor(scenario, url, context),
  );
  try {
    await handler({ client: session.client, context });
  } finally {
    await session.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

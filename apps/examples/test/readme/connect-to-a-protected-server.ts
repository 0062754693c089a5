import { httpAuthOptions, OAuthClientProvider } from '@x/auth';
import { FileTokenStore, startLoopbackRedirect } from '@x/auth/node';
import { Client } from '@x/client';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';

const url = 'https://mcp.example.com/mcp';
const loopback = await startLoopbackRedirect({ openUrl: (u) => console.error(`Sign in at ${u}`) });
const provider = new OAuthClientProvider({
  serverUrl: url,
  redirectUri: loopback.redirectUri,
  authorize: loopback.authorize,
  store: new FileTokenStore({ path: 'tokens.json' }), // one 0600 file; refreshed tokens land here too
});
const client = new Client({ name: 'my-app', version: '1.0.0' });
await client.connect(new StreamableHttpClientTransport(url, httpAuthOptions(provider)));

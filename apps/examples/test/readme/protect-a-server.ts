import { createServer } from 'node:http';
import { bearerAuth, protectedResourceMetadataHandler, resourceMetadataUrl } from '@x/auth';
import { McpServer } from '@x/server';
import { createStreamableHttpHandler } from '@x/transport-streamable-http';
import { toNodeHandler } from '@x/transport-streamable-http/node';

const resource = 'http://127.0.0.1:3000/mcp';
const issuer = 'https://auth.example.com';
const server = new McpServer({ name: 'files', version: '1.0.0' }); // tools see ctx.authInfo
const authenticate = bearerAuth({ resource, authorizationServers: [issuer], jwks: `${issuer}/jwks` });
const mcp = createStreamableHttpHandler({ onsession: (t) => server.connect(t), authenticate });
const prm = protectedResourceMetadataHandler({ resource, authorizationServers: [issuer] });
const prmPath = resourceMetadataUrl(resource).pathname; // /.well-known/oauth-protected-resource/mcp
const route = async (req: Request, ctx?: { localAddress?: string | undefined }) =>
  new URL(req.url).pathname === prmPath ? prm(req) : mcp(req, ctx);
createServer(toNodeHandler(route)).listen(3000, '127.0.0.1');

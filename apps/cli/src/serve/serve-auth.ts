// `x-mcp serve --auth-token …` / `--auth-issuer …`: the example server as an OAuth protected resource
// (MCP "Authorization"), built from @x/auth's resource-server pieces. Everything auth-related of `serve`
// is here; `bridge` protects its fronts with the same pieces (`readFrontAuth`, `createServeAuth`).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAuthenticate } from '@x/protocol/http';
import type { ParsedArgs } from '../args/parsed-args.js';
import { readTokenFile } from '../args/read-token-file.js';
import { UsageError } from '../args/usage-error.js';
import { ConnectError } from '../session/connect-error.js';

/** How `serve` is protected, as the command line said. */
export type ServeAuthSpec =
  | { readonly kind: 'token'; readonly secret: string }
  | {
      readonly kind: 'issuer';
      /** As given: the `iss` tokens must carry, compared exactly. */
      readonly issuer: string;
      readonly audience: string | undefined;
      /** Required of every request and listed in the PRM (`scopes_supported`). */
      readonly scopes: readonly string[];
    };

/** The protection of a running server: the handlers' `authenticate` hook and the PRM route. */
export interface ServeAuth {
  readonly authenticate: HttpAuthenticate;
  /** `/.well-known/oauth-protected-resource/<path>` (RFC 9728 §3.1). */
  readonly metadataPath: string;
  /** Serves the Protected Resource Metadata document on `node:http`. */
  readonly serveMetadata: (req: IncomingMessage, res: ServerResponse) => void;
  /** One line for stderr: how to connect. */
  readonly description: string;
}

/** Where `--auth-*` are read: the command, its front option, the front chosen and those that take auth. */
export interface FrontAuthScope {
  readonly command: 'serve' | 'bridge';
  /** The option naming the front: `--transport` (serve) or `--serve` (bridge). */
  readonly option: string;
  readonly front: string;
  /** The fronts that can check a bearer token, in the order the usage error lists them. */
  readonly protectable: readonly string[];
  /** Appended to the usage error of a front that cannot take auth. */
  readonly why?: string | undefined;
}

/** Reads `--auth-token` / `--auth-issuer` / `--auth-audience` of `serve`; undefined when none is given. */
export function readServeAuth(args: ParsedArgs, transport: string): ServeAuthSpec | undefined {
  return readFrontAuth(args, {
    command: 'serve',
    option: '--transport',
    front: transport,
    protectable: ['http', 'sse'],
  });
}

/** Reads the `--auth-*` options of `serve` or `bridge`; undefined when none is given. */
export function readFrontAuth(args: ParsedArgs, where: FrontAuthScope): ServeAuthSpec | undefined {
  const { command } = where;
  const one = (name: string): string | undefined => args.values.get(name)?.at(-1);
  const inline = one('auth-token');
  const secretFile = one('auth-token-file');
  if (inline !== undefined && secretFile !== undefined)
    throw new UsageError('give either --auth-token or --auth-token-file, not both', { command });
  // A file keeps the secret out of the process list, where every user of the machine can read it.
  const secret =
    secretFile === undefined ? inline : readTokenFile(secretFile, { option: '--auth-token-file', command });
  const secretOption = secretFile === undefined ? '--auth-token' : '--auth-token-file';
  const issuer = one('auth-issuer');
  const audience = one('auth-audience');
  const scopes = args.values.get('auth-scope') ?? [];
  if (secret === undefined && issuer === undefined) {
    if (audience !== undefined || scopes.length > 0)
      throw new UsageError('--auth-audience and --auth-scope go with --auth-issuer', { command });
    return undefined;
  }
  if (!where.protectable.includes(where.front)) {
    const list = `${where.protectable.slice(0, -1).join(', ')} and ${where.protectable.at(-1)}`;
    throw new UsageError(
      `--auth-token and --auth-issuer apply to ${where.option} ${list}, not ${where.front}${where.why === undefined ? '' : ` (${where.why})`}`,
      { command },
    );
  }
  if (secret !== undefined && issuer !== undefined) {
    throw new UsageError('give either --auth-token or --auth-issuer, not both', { command });
  }
  if (secret !== undefined) {
    if (audience !== undefined || scopes.length > 0)
      throw new UsageError('--auth-audience and --auth-scope go with --auth-issuer', { command });
    if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(secret)) {
      throw new UsageError(
        `${secretOption} expects a bearer token (letters, digits, -._~+/ and trailing =)`,
        { command },
      );
    }
    return { kind: 'token', secret };
  }
  let url: URL;
  try {
    url = new URL(issuer as string);
  } catch {
    throw new UsageError(`--auth-issuer expects the authorization server's URL, got '${issuer}'`, {
      command,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--auth-issuer expects an http(s) URL, got '${issuer}'`, { command });
  }
  for (const scope of scopes) {
    // RFC 6749 §3.3 scope-token: printable ASCII without space, quote or backslash.
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))
      throw new UsageError(`--auth-scope expects one scope token, got '${scope}'`, { command });
  }
  return {
    kind: 'issuer',
    issuer: url.href === `${issuer}/` ? (issuer as string) : url.href,
    audience,
    scopes,
  };
}

/**
 * Builds the protection for the server at `resource` (its URL, known once it listens): a static
 * bearer secret checked in constant time, or JWT access tokens from the issuer, verified with the key
 * set its metadata names (audience = `--auth-audience`, else the server URL). `name` is the command
 * protected (`x-mcp serve`, `x-mcp bridge`), as the metadata's `resource_name` shows it.
 */
export async function createServeAuth(
  spec: ServeAuthSpec,
  resource: URL,
  name = 'x-mcp serve',
): Promise<ServeAuth> {
  const { AuthError, bearerAuth, discoverJwksUri, protectedResourceMetadataHandler, resourceMetadataUrl } =
    await import('@x/auth');
  const metadataPath = resourceMetadataUrl(resource).pathname;
  let authenticate: HttpAuthenticate;
  let authorizationServers: string[];
  let description: string;
  let scopesSupported: readonly string[] | undefined;
  if (spec.kind === 'token') {
    const expected = createHash('sha256').update(spec.secret).digest();
    authorizationServers = [];
    authenticate = bearerAuth({
      resource,
      authorizationServers,
      dpop: false,
      // Hashes have equal length, so timingSafeEqual compares without leaking the secret's length.
      verify: async (token) => {
        if (!timingSafeEqual(createHash('sha256').update(token).digest(), expected))
          throw new AuthError('invalid_token', 'the token is not the one this server was started with');
        return { token, clientId: name.replace(' ', '-'), scopes: [] };
      },
    });
    description = 'Protected: send "Authorization: Bearer <--auth-token>" (x-mcp … --token <secret>)';
  } else {
    const jwks = await discoverJwksUri(spec.issuer).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConnectError(`cannot find the key set of --auth-issuer ${spec.issuer} (${reason})`);
    });
    authorizationServers = [spec.issuer];
    authenticate = bearerAuth({
      resource: spec.audience ?? resource.href,
      authorizationServers,
      jwks,
      requiredScopes: spec.scopes,
    });
    scopesSupported = spec.scopes.length > 0 ? spec.scopes : undefined;
    description = `Protected: JWT access tokens from ${authorizationServers[0]} (x-mcp login <url>)`;
  }
  const prm = protectedResourceMetadataHandler({
    resource,
    authorizationServers,
    scopesSupported,
    resourceName: name,
  });
  const serveMetadata = (req: IncomingMessage, res: ServerResponse): void => {
    const answer = prm(new Request(new URL(metadataPath, resource), { method: req.method ?? 'GET' }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    void answer.text().then((body) => res.end(req.method === 'HEAD' ? undefined : body));
  };
  return { authenticate, metadataPath, serveMetadata, description };
}

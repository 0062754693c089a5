/**
 * What each published package may import (DESIGN §1). `node` means `node:` built-ins are allowed.
 * `nodeDirs` names folders under `src/` of a runtime-neutral package (`node: false`) whose files may
 * import `node:` built-ins (its Node-only subpath, e.g. `./node`); nothing outside them may import
 * a file inside them, so the root stays reachable without Node.
 * `refused` maps import specifiers a package must not use to the reason (the error names it).
 * Workspace packages are named by their npm names; anything not listed here is refused.
 */
// The client and the client transports import `@x/protocol`'s zod-free entries, never its root (which
// holds the zod schemas): a browser app then downloads zod only on demand (issue 30).
const ZOD_FREE = {
  '@x/protocol':
    "its root holds the zod schemas, which a browser app must not download up front: import '@x/protocol/core' (or ./internal, ./http)",
};

// A transport package builds on public entries only (issue 36): what first-party transports import is
// what a contributor's transport can import, under semver. `./internal` is for the client and server.
const TRANSPORT = {
  '@x/protocol':
    "its root holds the zod schemas, which a browser app must not download up front: import '@x/protocol/core' (or ./transport, ./http)",
  '@x/protocol/internal':
    "it is not covered by semver and is for @x/client and @x/server only; a transport imports '@x/protocol/transport' (the transport kit), '@x/protocol/core', './http' or './node'",
};

export const ALLOWANCES = {
  '@x/protocol': { deps: ['zod'], node: false, nodeDirs: ['node'] },
  '@x/client': { deps: ['@x/protocol'], node: false, refused: ZOD_FREE },
  '@x/server': { deps: ['@x/protocol'], node: false },
  '@x/transport-stdio': { deps: ['@x/protocol'], node: true, refused: TRANSPORT },
  // `node: true` until the client's default fetch (a dynamic `node:events` import) moves behind a seam;
  // its server already keeps `node:` under src/node/, and a browser bundle test holds the main entry.
  '@x/transport-sse': {
    deps: ['@x/protocol', 'undici', 'eventsource-parser'],
    node: true,
    refused: TRANSPORT,
  },
  '@x/transport-streamable-http': {
    deps: ['@x/protocol', 'undici', 'eventsource-parser'],
    node: false,
    nodeDirs: ['node'],
    refused: TRANSPORT,
  },
  '@x/auth': { deps: ['@x/protocol', 'oauth4webapi', 'jose'], node: false, nodeDirs: ['node'] },
  // `@types/ws`: the public declarations import `ws` types, so a consumer's strict tsc needs them.
  '@x/transport-ws': { deps: ['@x/protocol', 'ws', '@types/ws'], node: true, refused: TRANSPORT },
  // MCP over gRPC (issue 37): built from the public transport kit only, like every transport.
  '@x/transport-grpc': {
    deps: ['@x/protocol', '@grpc/grpc-js', '@grpc/proto-loader'],
    node: true,
    refused: TRANSPORT,
  },
  // Scale-out stores (DESIGN §9, §10): implements the interfaces of @x/protocol; imports no transport.
  // `cluster-key-slot` is node-redis's own slot function (issue 41: no hand-written CRC16).
  '@x/redis': { deps: ['@x/protocol', 'redis', 'cluster-key-slot'], node: false },
  // OpenTelemetry in a package of its own: @x/client and @x/server stay free of it, and an application
  // without @x/otel loads none of it. `@opentelemetry/api` is a peer (one API instance per process).
  '@x/otel': { deps: ['@x/protocol', '@opentelemetry/api'], node: false },
  // A composition package (DESIGN §10, issue 38): puts an upstream `Client` behind a `Server`, so it may
  // import both, and @x/protocol's public entries; never a transport (users hand it transports), never
  // `./internal`, and no `node:` module (it runs wherever its transports do).
  '@x/bridge': {
    deps: ['@x/protocol', '@x/client', '@x/server'],
    node: false,
    refused: {
      '@x/protocol/internal':
        "it is for @x/client and @x/server only; the bridge composes them through their public API and '@x/protocol/core'",
    },
  },
  // The official SDK 1.x module paths on top of x-mcp (issue 39): a user-facing facade, so it may import
  // the client, the server and the transports' public entries (nothing imports it back).
  '@x/compat': {
    deps: [
      '@x/protocol',
      '@x/server',
      '@x/client',
      '@x/transport-stdio',
      '@x/transport-streamable-http',
      '@x/transport-sse',
      // The 1.x `types.js` names x-mcp has no schema for (JSON-RPC envelopes, unions) are built with zod.
      'zod',
      // `server/express.js` (createMcpExpressApp) returns an Express app, as 1.x: an optional peer.
      'express',
      '@types/express',
    ],
    node: true,
  },
};

/**
 * Import cycles still tolerated, per package (files relative to its `src/`, as the check reports them).
 * Every other cycle fails the check. Keep this empty: an entry is a debt with an owner, not a licence.
 */
export const CYCLE_ALLOWANCES = {};

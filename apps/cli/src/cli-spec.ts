import type { OptionSpec } from './args/option-spec.js';

/** One `x-mcp` command, as the dispatcher and the help text see it. */
export interface CommandSpec {
  readonly name: string;
  /** What follows the command name, target included. */
  readonly usage: string;
  readonly summary: string;
  readonly examples: readonly string[];
  /** Whether it talks to a server (needs a target, takes the connection options). */
  readonly client: boolean;
}

const TARGET = '<url> | <ws-url> <http-url> | -- <command> [args…]';

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'info',
    usage: `info [options] ${TARGET}`,
    summary: 'Show the server: name, version, era, protocol version, capabilities, instructions',
    examples: ['x-mcp info http://127.0.0.1:3000/mcp', 'x-mcp info --json -- node server.js'],
    client: true,
  },
  {
    name: 'tools',
    usage: `tools [options] ${TARGET}`,
    summary: 'List the tools and their arguments (* = required)',
    examples: ['x-mcp tools http://127.0.0.1:3000/mcp'],
    client: true,
  },
  {
    name: 'call',
    usage: `call <tool> [key=value | key:=json | '{…}']… [options] ${TARGET}`,
    summary:
      "Call a tool; key=value arguments are typed from the tool's input schema, and required and enum arguments are checked before sending",
    examples: [
      'x-mcp call echo message=hi -- node server.js',
      `x-mcp call add a=1 b=2 http://127.0.0.1:3000/mcp`,
      `x-mcp call search --args '{"query":"mcp","limit":5}' ws://127.0.0.1:3000/mcp`,
      'x-mcp call get_weather city=Oslo --retry 3 ws://127.0.0.1:3000/mcp http://127.0.0.1:3001/mcp',
    ],
    client: true,
  },
  {
    name: 'resources',
    usage: `resources [options] ${TARGET}`,
    summary: 'List the resources',
    examples: ['x-mcp resources http://127.0.0.1:3000/mcp'],
    client: true,
  },
  {
    name: 'templates',
    usage: `templates [options] ${TARGET}`,
    summary: 'List the resource templates',
    examples: ['x-mcp templates http://127.0.0.1:3000/mcp'],
    client: true,
  },
  {
    name: 'read',
    usage: `read <uri> [options] ${TARGET}`,
    summary: 'Read a resource (binary contents: type and size, or saved with --out)',
    examples: [
      'x-mcp read test://static-text http://127.0.0.1:3000/mcp',
      'x-mcp read file:///logo.png --out . -- node server.js',
    ],
    client: true,
  },
  {
    name: 'prompts',
    usage: `prompts [options] ${TARGET}`,
    summary: 'List the prompts and their arguments (* = required)',
    examples: ['x-mcp prompts http://127.0.0.1:3000/mcp'],
    client: true,
  },
  {
    name: 'prompt',
    usage: `prompt <name> [key=value…] [options] ${TARGET}`,
    summary: 'Get a prompt with its arguments and show its messages',
    examples: ['x-mcp prompt greet name=Ada http://127.0.0.1:3000/mcp'],
    client: true,
  },
  {
    name: 'complete',
    usage: `complete (prompt:<name> | resource:<uri-template>) <argument> [<partial>] [name=value…] [options] ${TARGET}`,
    summary: 'Ask for completions of a prompt argument or a template variable (name=value: context)',
    examples: [
      'x-mcp complete prompt:greet name Ad http://127.0.0.1:3000/mcp',
      "x-mcp complete 'resource:file:///{path}' path src/ -- node server.js",
    ],
    client: true,
  },
  {
    name: 'listen',
    usage: `listen [--subscribe <uri>]… [options] ${TARGET}`,
    summary: 'Print server notifications until Ctrl-C (list changes, resource updates, logs)',
    examples: ['x-mcp listen --subscribe test://watched-resource http://127.0.0.1:3000/mcp'],
    client: true,
  },
  {
    name: 'tasks',
    usage: `tasks get|cancel|result <task-id> | tasks list [options] ${TARGET}`,
    summary:
      'Show or cancel a task (both eras); list tasks or fetch a result (2025-11-25 servers; result waits)',
    examples: [
      'x-mcp tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 http://127.0.0.1:3000/mcp',
      'x-mcp tasks cancel 786512e2-9e0d-44bd-8f29-789f320fe840 -- node server.js',
      'x-mcp tasks list --legacy -- node server.js',
    ],
    client: true,
  },
  {
    name: 'ping',
    usage: `ping [options] ${TARGET}`,
    summary: 'Check the server answers (ping; server/discover on 2026-07-28) and show the round trip',
    examples: ['x-mcp ping ws://127.0.0.1:3000/mcp'],
    client: true,
  },
  {
    name: 'serve',
    usage:
      'serve [--transport stdio|http|sse|ws|grpc] [--port <n>] [--host <address>] [--auth-token <secret> | --auth-token-file <path> | --auth-issuer <url> [--auth-audience <aud>] [--auth-scope <scope>]…]',
    summary: 'Run the example "everything" server; prints its URL on the first line of stdout',
    examples: [
      'x-mcp serve --transport http --port 3000',
      'x-mcp serve --transport stdio',
      'x-mcp serve --transport grpc --port 50051   # then: x-mcp tools grpc://127.0.0.1:50051',
      'x-mcp serve --auth-token s3cret   # then: x-mcp tools --token s3cret http://127.0.0.1:3000/mcp',
      'x-mcp serve --auth-issuer https://auth.example.com --auth-scope mcp:tools',
    ],
    client: false,
  },
  {
    name: 'bridge',
    usage:
      'bridge [--serve http|sse|ws|grpc|stdio] [--shared] [--port <n>] [--host <address>] [--auth-token-file <path> | --auth-issuer <url> …] [--no-browser] [--client-id <id>] -- <command> [args…] | <url>',
    summary:
      'Put an MCP server on another transport and era: one upstream process (or connection) per downstream session',
    examples: [
      'x-mcp bridge --serve http --port 3000 -- npx @modelcontextprotocol/server-everything',
      'x-mcp bridge --serve stdio -- https://mcp.example.com/mcp',
      'x-mcp bridge --serve ws --port 0 -- http://127.0.0.1:3000/mcp',
      'x-mcp bridge --serve grpc --auth-token-file ./secret -- http://127.0.0.1:3000/mcp   # then: x-mcp tools --token-file ./secret grpc://…',
    ],
    client: false,
  },
  {
    name: 'login',
    usage: 'login [--no-browser] <url>',
    summary: 'Authorize x-mcp at a protected server (OAuth) and cache its tokens',
    examples: [
      'x-mcp login https://mcp.example.com/mcp',
      'x-mcp login --no-browser http://127.0.0.1:3000/mcp',
    ],
    client: false,
  },
  {
    name: 'logout',
    usage: 'logout [<url>]',
    summary: "Forget a server's cached tokens (every server's without a URL)",
    examples: ['x-mcp logout https://mcp.example.com/mcp', 'x-mcp logout'],
    client: false,
  },
  {
    name: 'help',
    usage: 'help [<command>]',
    summary: 'Show help for x-mcp or one command',
    examples: ['x-mcp help call'],
    client: false,
  },
];

export const CLIENT_COMMANDS: readonly string[] = COMMANDS.filter((c) => c.client).map((c) => c.name);

export const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'header',
    short: 'H',
    value: "'<name>: <value>'",
    repeatable: true,
    description: 'HTTP/WebSocket header (gRPC metadata) sent with every request (repeatable)',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'token',
    value: '<token>',
    description:
      'send "Authorization: Bearer <token>" (a pre-obtained credential; no OAuth flow); other users can see it in the process list, prefer --token-file or X_MCP_TOKEN',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'token-file',
    value: '<path>',
    description: 'like --token, the token read from a file (surrounding white space ignored)',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'no-browser',
    description: 'on OAuth authorization, only print the URL (no browser is opened)',
    commands: [...CLIENT_COMMANDS, 'login', 'bridge'],
  },
  {
    name: 'client-id',
    value: '<id>',
    description:
      'a remote upstream: sign in as this pre-registered OAuth client with the client_credentials grant (no browser); its secret from --client-secret-file or X_MCP_CLIENT_SECRET',
    commands: ['bridge'],
  },
  {
    name: 'client-secret-file',
    value: '<path>',
    description: "with --client-id: the client's secret, read from a file (surrounding white space ignored)",
    commands: ['bridge'],
  },
  {
    name: 'env',
    short: 'e',
    value: '<KEY=VALUE>',
    repeatable: true,
    description: 'environment variable for a stdio server (repeatable)',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'root',
    value: '<dir>',
    repeatable: true,
    description: 'offer this directory to the server as a root (roots/list; repeatable)',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'timeout',
    value: '<ms>',
    description:
      'request timeout in milliseconds (default 60000; each progress notification restarts it); also bounds connecting (default 30000)',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'retry',
    value: '<n>',
    description:
      'repeat a request safe to repeat (lists, reads, read-only tools) up to n times on a transient failure (timeout, lost connection, HTTP 429/502/503/504); with -- <command>, also restart a crashed server up to n times a minute',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'legacy',
    description: 'speak only the initialize-era protocol (2025-11-25 and older)',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'protocol-version',
    value: '<version>',
    description: 'pin one protocol version, e.g. 2025-06-18 or 2026-07-28 (default: negotiate)',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'transport',
    value: '<name>',
    description: 'for http(s) URLs: http (Streamable HTTP only) or sse (legacy HTTP+SSE only); default: both',
    descriptions: { serve: 'what to serve over: http (default), sse, ws, grpc or stdio' },
    commands: [...CLIENT_COMMANDS, 'serve'],
  },
  {
    name: 'log-level',
    value: '<level>',
    description: 'ask the server for logs at this level or above (debug … emergency); printed on stderr',
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'json',
    description: 'print JSON on stdout for scripts (a failure too: {"error": {…}})',
    descriptions: { listen: 'print one JSON object per notification and line, for scripts' },
    commands: CLIENT_COMMANDS,
  },
  {
    name: 'args',
    value: '<json>',
    description: 'arguments as one JSON object',
    commands: ['call', 'prompt'],
  },
  {
    name: 'out',
    short: 'o',
    value: '<dir>',
    description: 'save images, audio and binary resources into this directory',
    commands: ['call', 'read', 'prompt'],
  },
  {
    name: 'subscribe',
    value: '<uri>',
    repeatable: true,
    description: 'also watch this resource for updates (repeatable)',
    commands: ['listen'],
  },
  {
    name: 'heartbeat',
    value: '<ms>',
    description:
      'ping the server this often (default 10000; 0 off); two unanswered in a row end listen (exit 3)',
    commands: ['listen'],
  },
  {
    name: 'serve',
    value: '<name>',
    description:
      'what the bridge serves over: http (default, Streamable HTTP at /mcp), sse, ws, grpc or stdio',
    commands: ['bridge'],
  },
  {
    name: 'shared',
    description:
      'one upstream for every client instead of one each; 2026-07-28 (stateless) clients only, requests in turn',
    commands: ['bridge'],
  },
  {
    name: 'port',
    value: '<n>',
    description: 'port to listen on; 0 picks a free one (default 3000)',
    commands: ['serve', 'bridge'],
  },
  {
    name: 'host',
    value: '<address>',
    description: 'interface to bind (default 127.0.0.1)',
    commands: ['serve', 'bridge'],
  },
  {
    name: 'auth-token',
    value: '<secret>',
    description:
      'http, sse: require "Authorization: Bearer <secret>" (401 with a challenge otherwise); visible in the process list, prefer --auth-token-file',
    descriptions: {
      bridge:
        'http, sse, ws, grpc (not stdio: no front to protect): require "Authorization: Bearer <secret>" of every client (401, gRPC UNAUTHENTICATED otherwise); visible in the process list, prefer --auth-token-file',
    },
    commands: ['serve', 'bridge'],
  },
  {
    name: 'auth-token-file',
    value: '<path>',
    description: 'like --auth-token, the secret read from a file (surrounding white space ignored)',
    commands: ['serve', 'bridge'],
  },
  {
    name: 'auth-issuer',
    value: '<url>',
    description: 'http, sse: require a JWT access token from this issuer, checked with its JWKS',
    descriptions: {
      bridge:
        'http, sse, ws, grpc (not stdio): require a JWT access token from this issuer, checked with its JWKS',
    },
    commands: ['serve', 'bridge'],
  },
  {
    name: 'auth-audience',
    value: '<aud>',
    description: 'with --auth-issuer: the audience tokens must name (default: the server URL)',
    descriptions: {
      bridge:
        'with --auth-issuer: the audience tokens must name (default: the front URL, http: form for ws; http://host:port/ for grpc)',
    },
    commands: ['serve', 'bridge'],
  },
  {
    name: 'auth-scope',
    value: '<scope>',
    repeatable: true,
    description:
      'with --auth-issuer: a scope every request needs, listed in the resource metadata (repeatable)',
    commands: ['serve', 'bridge'],
  },
  { name: 'help', short: 'h', description: 'show help' },
  { name: 'version', short: 'V', description: 'print the x-mcp version' },
];

// The server of the compat row: code written against the official SDK 1.x only, as an application
// would. Run plainly it is on the genuine `@modelcontextprotocol/sdk` 1.32.2; run with
// `--import dist/compat/alias-register.js` every `@modelcontextprotocol/sdk/…` import resolves to
// @x/compat instead (what `"@modelcontextprotocol/sdk": "npm:@x/compat"` does). argv[2]: `stdio` or
// `http` (Streamable HTTP, a session per client, on a free 127.0.0.1 port reported on stderr as
// `LISTENING <port>`). The `stats` tool reports the process's CPU time and peak RSS to the driver.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';

function build(): McpServer {
  const server = new McpServer({ name: 'compat-row-echo', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('stats', {}, () => {
    const cpu = process.cpuUsage();
    const text = JSON.stringify({ cpuUs: cpu.user + cpu.system, maxRssKiB: process.resourceUsage().maxRSS });
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

if (process.argv[2] === 'http') {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, created);
        },
      });
      await build().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1', () => {
    const address = http.address();
    process.stderr.write(
      `LISTENING ${typeof address === 'object' && address !== null ? address.port : ''}\n`,
    );
  });
} else {
  await build().connect(new StdioServerTransport());
}

// Example: a stdio server and client. The client spawns `stdio-add-server.js` as a child process,
// negotiates the era (an x-mcp server answers the modern `server/discover` probe), calls a tool, reads
// the server's logs from its stderr, and shuts it down the spec's way: closing stdin is enough, so the
// server exits with code 0 instead of being signalled.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@x/client';
import { StdioClientTransport } from '@x/transport-stdio';

const serverEntry = fileURLToPath(new URL('./stdio-add-server.js', import.meta.url));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [serverEntry],
  stderr: 'pipe',
});
let serverLog = '';
transport.stderr?.on('data', (chunk: Buffer) => {
  serverLog += chunk.toString('utf8');
});

const client = new Client({ name: 'stdio-example', version: '1.0.0' });
try {
  await client.connect(transport);
  console.log(
    `connected to ${client.serverInfo?.name} (pid ${transport.pid}): ${client.era} ${client.protocolVersion}`,
  );
  assert.equal(client.era, 'modern');

  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ['add'],
  );
  const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  assert.deepEqual(result.content, [{ type: 'text', text: '5' }]);
  console.log('add(2, 3) = 5');
} finally {
  await client.close();
}

assert.match(serverLog, /stdio-add-server ready/);
console.log(`server log on stderr: ${serverLog.trim()}`);
assert.deepEqual(transport.exitInfo, { code: 0, signal: null });
console.log('server exited with code 0 after stdin closed');

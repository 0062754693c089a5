// The everything-server on stdin/stdout: `node dist/stdio-server.js`. It exits when stdin closes.
import { StdioServerTransport } from '@x/transport-stdio';
import { createEverythingServer } from './everything-server.js';

await createEverythingServer().connect(new StdioServerTransport());

/**
 * JavaScript function calls per `tools/call`, counted by V8 (precise coverage with call counts) around
 * a window of echo calls: what a cold window pays for, function by function, where a CPU profile of
 * the same window is flat. Client and server run in this process (in-memory, or a real loopback socket
 * for HTTP, legacy SSE and WebSocket); over stdio the server is a child process and only the client
 * side is counted.
 *
 *   node dist/calls.js <transport> <sdk> [--list]
 *
 * Prints `calls/request <total> own <x-mcp packages> node <Node internals>`; `--list` adds one line per
 * function called at least once every other request.
 */
import { Session } from 'node:inspector/promises';
import { openSession } from './open-session.js';
import { SDKS, type SdkName, TRANSPORTS, type TransportName } from './types.js';

const WARMUP = 300;
const WINDOW = 1_000;

interface FunctionCount {
  perRequest: number;
  name: string;
  where: string;
}

const [transport, sdk] = process.argv.slice(2) as [TransportName, SdkName];
if (!TRANSPORTS.includes(transport) || !SDKS.includes(sdk)) {
  console.error(`usage: node dist/calls.js <${TRANSPORTS.join('|')}> <${SDKS.join('|')}> [--list]`);
  process.exit(2);
}
const list = process.argv.includes('--list');

const { session, close } = await openSession(transport, sdk);
for (let i = 0; i < WARMUP; i++) await session.echo();
const inspector = new Session();
inspector.connect();
await inspector.post('Profiler.enable');
await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
// Taking coverage resets the counts: the first take drops the warm-up's.
await inspector.post('Profiler.takePreciseCoverage');
for (let i = 0; i < WINDOW; i++) await session.echo();
const { result } = await inspector.post('Profiler.takePreciseCoverage');
await inspector.post('Profiler.stopPreciseCoverage');
inspector.disconnect();
await close();

const counts: FunctionCount[] = [];
for (const script of result) {
  if (script.url === '' || script.url.endsWith('/calls.js')) continue;
  const where = script.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(packages|apps)\//, '$1/');
  for (const fn of script.functions) {
    const perRequest = (fn.ranges[0]?.count ?? 0) / WINDOW;
    if (perRequest >= 0.5) counts.push({ perRequest, name: fn.functionName || '(anonymous)', where });
  }
}
counts.sort((a, b) => b.perRequest - a.perRequest);
const sum = (filter: (count: FunctionCount) => boolean): string =>
  counts
    .filter(filter)
    .reduce((total, count) => total + count.perRequest, 0)
    .toFixed(1);
if (list) {
  for (const count of counts)
    console.log(`${count.perRequest.toFixed(2).padStart(7)} ${count.name} ${count.where}`);
}
console.log(
  `${transport} ${sdk} calls/request ${sum(() => true)} own ${sum((count) => count.where.startsWith('packages/'))} node ${sum((count) => count.where.startsWith('node:'))}`,
);
process.exit(0);

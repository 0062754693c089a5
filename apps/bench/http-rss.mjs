// start a bench HTTP server (sdk, transport) and drive W2-like load from a raw undici client; print server RSS/HWM phases
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ControlServer } from './dist/control/control-server.js';
import { request, Agent } from 'undici';
const sdk = process.argv[2] ?? 'x-mcp'; const transport = process.argv[3] ?? 'http-json';
const control = await ControlServer.listen();
const child = spawn(process.execPath, ['--expose-gc', ...(process.env.NODEFLAGS ? process.env.NODEFLAGS.split(' ') : []), '/work/main/apps/bench/dist/server.js', JSON.stringify({ sdk, transport, controlPort: control.port })], { stdio: ['ignore', 'inherit', 'inherit'] });
const { port } = await control.ready(10000);
const status = () => { const s = readFileSync(`/proc/${child.pid}/status`, 'utf8'); const g = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]) / 1024; return `rss ${g('VmRSS').toFixed(1)} hwm ${g('VmHWM').toFixed(1)}`; };
const agent = new Agent({ connections: 64, keepAliveTimeout: 10000 });
const url = `http://127.0.0.1:${port}/mcp`;
let id = 0; let session;
const post = async (body) => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  if (session) headers['mcp-session-id'] = session;
  const r = await request(url, { method: 'POST', body: JSON.stringify(body), headers, dispatcher: agent });
  if (r.headers['mcp-session-id']) session = r.headers['mcp-session-id'];
  return r.body.text();
};
console.log(sdk, transport, 'started      ', status());
await post({ jsonrpc: '2.0', id: ++id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
const call = () => post({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } });
for (let i = 0; i < 320; i++) await call();
console.log(sdk, transport, 'after warmup ', status());
let next = 0; await Promise.all(Array.from({ length: 64 }, async () => { while (next++ < 2000) await call(); }));
console.log(sdk, transport, 'after W2     ', status());
child.kill(); await agent.close(); process.exit(0);

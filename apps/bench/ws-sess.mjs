import v8 from 'node:v8';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
const which = process.argv[2] ?? 'x-mcp';
let port;
if (which === 'x-mcp') { const { serve } = await import('./dist/adapters/xmcp/serve-ws.js'); port = (await serve()).port; }
else { const { serveRawWs } = await import('./dist/adapters/raw/ws.js'); port = (await serveRawWs()).port; }
const open = async () => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', { perMessageDeflate: false });
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  const wait = () => new Promise((r) => ws.once('message', r));
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })); await wait();
  ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  for (let i = 0; i < 10; i++) { ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2 + i, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } })); await wait(); }
  return ws;
};
const keep = [];
for (let i = 0; i < 20; i++) keep.push(await open());
const summarize = (file) => { const snap = JSON.parse(readFileSync(file, 'utf8')); const f = snap.snapshot.meta.node_fields; const types = snap.snapshot.meta.node_types[0]; const n = f.length; const m = new Map(); const nodes = snap.nodes; for (let i = 0; i < nodes.length; i += n) { const t = types[nodes[i]]; const name = t === 'object' || t === 'closure' ? snap.strings[nodes[i + 1]] : `(${t})`; const e = m.get(name) ?? [0, 0]; e[0]++; e[1] += nodes[i + 3]; m.set(name, e); } return m; };
gc(); gc(); const s0 = process.memoryUsage(); const f0 = v8.writeHeapSnapshot('/tmp/h0.heapsnapshot');
for (let i = 0; i < 200; i++) keep.push(await open());
gc(); gc(); const s1 = process.memoryUsage(); const f1 = v8.writeHeapSnapshot('/tmp/h1.heapsnapshot');
console.log(which, 'heap KiB/session', ((s1.heapUsed - s0.heapUsed) / 200 / 1024).toFixed(1), 'external', ((s1.external - s0.external) / 200 / 1024).toFixed(1), 'rss', ((s1.rss - s0.rss) / 200 / 1024).toFixed(1));
const a = summarize(f0), b = summarize(f1);
const diff = [...b].map(([k, [c, s]]) => [k, c - (a.get(k)?.[0] ?? 0), s - (a.get(k)?.[1] ?? 0)]).filter(x => x[1] > 0).sort((x, y) => y[2] - x[2]).slice(0, 40);
for (const [k, c, s] of diff) console.log(String((s / 200).toFixed(0)).padStart(6), 'B/session', (c / 200).toFixed(1).padStart(6), 'objs/session', k);
process.exit(0);

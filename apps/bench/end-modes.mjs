import { createServer } from 'node:http';
import { request, Agent } from 'undici';
const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(1 << 20) }] } });
const mode = process.argv[2];
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = JSON.parse(JSON.stringify(JSON.parse(text))); const s = JSON.stringify(body);
    if (mode === 'a') res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(s)) }).end(s);
    else if (mode === 'b') res.writeHead(200, { 'content-type': 'application/json' }).end(s);
    else if (mode === 'c') { res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(s)) }); res.flushHeaders(); res.end(s); }
    else if (mode === 'd') { const b = Buffer.from(s); res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(b.byteLength) }).end(b); }
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const agent = new Agent();
const url = `http://127.0.0.1:${server.address().port}/`;
const one = async () => { const r = await request(url, { method: 'POST', body: '{}', dispatcher: agent }); return r.body.text(); };
for (let i = 0; i < 20; i++) await one();
const c0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < 200; i++) await one();
const t1 = performance.now(); const c = process.cpuUsage(c0);
console.log(mode, ((t1 - t0) / 200).toFixed(3), 'ms/call', ((c.user + c.system) / 200 / 1000).toFixed(3), 'cpu ms/call (both sides)');
process.exit(0);

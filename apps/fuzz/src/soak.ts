import { parseArgs } from 'node:util';
import { Client } from '@x/client';
import type { Transport } from '@x/protocol';
import { SseClientTransport } from '@x/transport-sse';
import { StreamableHttpClientTransport } from '@x/transport-streamable-http';
import { WebSocketClientTransport } from '@x/transport-ws';
import { createFuzzServer } from './fuzz-server.js';
import { MiB, settledHeap } from './heap.js';
import { type Host, hostSse, hostStreamableHttp, hostWebSocket } from './hosts.js';

// `pnpm soak [--calls N] [--every N] [--transports a,b] [--concurrency N]`: N tools/call over each network
// transport (default 1,000,000), with cancels, timeouts and reconnects mixed in, printing heap (after a
// forced GC) and RSS every `--every` calls and, at the end, the heap slope after warm-up (issue #24:
// "target: flat after warm-up"). Client and server share this process, so the heap is both sides'.

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000000' },
    every: { type: 'string' },
    transports: { type: 'string', default: 'streamable-http,streamable-http-legacy,sse,ws' },
    concurrency: { type: 'string', default: '16' },
  },
});
const calls = Number(values.calls);
const every = Number(values.every ?? Math.min(100_000, Math.max(1, Math.floor(calls / 10))));
const concurrency = Number(values.concurrency);
/** A reconnect (new client and connection, the old one closed) every 25k calls, at least 3 per run. */
const reconnectEvery = Math.max(1, Math.min(25_000, Math.floor(calls / 4)));

interface SoakTarget {
  name: string;
  host(): Promise<Host>;
  transport(url: URL): Transport;
  protocolVersion: 'legacy' | '2024-11-05' | 'modern';
}

const TARGETS: Record<string, SoakTarget> = {
  'streamable-http': {
    name: 'Streamable HTTP (2026-07-28)',
    host: () => hostStreamableHttp(createFuzzServer()),
    transport: (url) => new StreamableHttpClientTransport(url),
    protocolVersion: 'modern',
  },
  'streamable-http-legacy': {
    name: 'Streamable HTTP (legacy session)',
    host: () => hostStreamableHttp(createFuzzServer()),
    transport: (url) => new StreamableHttpClientTransport(url),
    protocolVersion: 'legacy',
  },
  sse: {
    name: 'legacy HTTP+SSE',
    host: () => hostSse(createFuzzServer()),
    transport: (url) => new SseClientTransport(url),
    protocolVersion: '2024-11-05',
  },
  ws: {
    name: 'WebSocket',
    host: () => hostWebSocket(createFuzzServer()),
    transport: (url) => new WebSocketClientTransport(url),
    protocolVersion: 'legacy',
  },
};

interface Sample {
  calls: number;
  heapMiB: number;
  rssMiB: number;
}

/** Least-squares slope of heap over calls, in MiB per 100k calls. */
function slope(samples: readonly Sample[]): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((sum, s) => sum + s.calls, 0) / n;
  const my = samples.reduce((sum, s) => sum + s.heapMiB, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.calls - mx) * (s.heapMiB - my);
    den += (s.calls - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 100_000;
}

async function soak(
  target: SoakTarget,
): Promise<{ slope: number; samples: Sample[]; counts: Record<string, number> }> {
  const host = await target.host();
  let client = await connect();
  async function connect(): Promise<Client> {
    const next = new Client({ name: 'soak', version: '1.0.0' }, { protocolVersion: target.protocolVersion });
    next.onerror = () => undefined;
    await next.connect(target.transport(new URL(host.url.href)));
    return next;
  }
  const counts: Record<string, number> = { ok: 0, cancelled: 0, timedOut: 0, reconnects: 0, unexpected: 0 };
  const samples: Sample[] = [];
  let issued = 0;
  let done = 0;
  let reconnecting: Promise<void> | undefined;
  const sample = () => {
    const heapMiB = settledHeap() / MiB;
    const rssMiB = process.memoryUsage().rss / MiB;
    samples.push({ calls: done, heapMiB, rssMiB });
    console.log(
      `  ${target.name.padEnd(30)} ${String(done).padStart(9)} calls  heap ${heapMiB.toFixed(1).padStart(7)} MiB  rss ${rssMiB.toFixed(1).padStart(7)} MiB`,
    );
  };
  sample();
  const one = async (n: number): Promise<void> => {
    const current = client;
    try {
      if (n % 50 === 25) {
        // Cancelled by the caller while the server is still working on it.
        const abort = new AbortController();
        const call = current.callTool({ name: 'slow', arguments: { ms: 20 } }, { signal: abort.signal });
        setTimeout(() => abort.abort(), 1);
        await call.then(
          () => counts['unexpected']!++,
          () => counts['cancelled']!++,
        );
      } else if (n % 97 === 48) {
        // Times out on our side; the server's late answer must be dropped.
        await current.callTool({ name: 'slow', arguments: { ms: 30 } }, { timeout: 5 }).then(
          () => counts['unexpected']!++,
          () => counts['timedOut']!++,
        );
      } else {
        const result = await current.callTool({ name: 'echo', arguments: { text: `call ${n}` } });
        if ((result.content[0] as { text?: string } | undefined)?.text === `call ${n}`) counts['ok']!++;
        else counts['unexpected']!++;
      }
    } catch {
      // A call in flight when a reconnect closed its client: expected, not a leak.
      if (current === client) counts['unexpected']!++;
    }
  };
  const worker = async (): Promise<void> => {
    while (issued < calls) {
      const n = issued++;
      if (n > 0 && n % reconnectEvery === 0) {
        reconnecting = (async () => {
          const old = client;
          client = await connect();
          await old.close();
          counts['reconnects']!++;
        })();
      }
      await reconnecting;
      await one(n);
      done++;
      if (done % every === 0) sample();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await client.close();
  await host.close();
  if (samples.at(-1)?.calls !== done) sample();
  // Warm-up: JIT, pools and caches fill during the first tenth.
  const steady = samples.filter((s) => s.calls >= calls / 10);
  return { slope: slope(steady), samples, counts };
}

const chosen = values.transports.split(',').map((name) => {
  const target = TARGETS[name.trim()];
  if (target === undefined)
    throw new Error(`unknown transport ${name}; one of ${Object.keys(TARGETS).join(', ')}`);
  return target;
});
console.log(`soak: ${calls} tools/call per transport, concurrency ${concurrency}, sample every ${every}`);
const results: string[] = [];
for (const target of chosen) {
  const started = performance.now();
  const { slope: perHundredK, samples, counts } = await soak(target);
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const seconds = (performance.now() - started) / 1000;
  results.push(
    `${target.name.padEnd(30)} ${(calls / seconds).toFixed(0).padStart(6)} calls/s  heap ${first.heapMiB.toFixed(1)} -> ${last.heapMiB.toFixed(1)} MiB, rss ${first.rssMiB.toFixed(1)} -> ${last.rssMiB.toFixed(1)} MiB, slope after warm-up ${perHundredK >= 0 ? '+' : ''}${perHundredK.toFixed(3)} MiB/100k calls  ${JSON.stringify(counts)}`,
  );
}
console.log('\nsoak summary');
for (const line of results) console.log(`  ${line}`);

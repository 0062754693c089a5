// The capacity table of docs/scale-out.md, recomputed from measured inputs. Usage:
// node packages/redis/scripts/capacity-model.mjs ['{"messagesPerSessionPerSec":0.5}']
// Every input below is a default, overridable by the JSON argument; see docs/scale-out.md for where
// each was measured.
const inputs = {
  // Redis memory per legacy session (hash + one subscription), scripts/measure-memory.mjs.
  bytesPerSession: 900,
  // Redis memory per stored event beyond its JSON, scripts/measure-memory.mjs.
  bytesPerEventOverhead: 30,
  // A typical GET-stream message (a log or progress notification).
  messageBytes: 200,
  // Events kept per stream (RedisEventStore maxEventsPerStream; lower than the default 1 000 here:
  // a resuming client needs only what it missed while reconnecting).
  eventsPerStream: 100,
  // Stream messages each session receives per second, on average.
  messagesPerSessionPerSec: 0.1,
  // Forwarded messages per second one Redis primary sustains (storeEventAndPublish, sharded),
  // scripts/measure-bus-throughput.mjs, on a shared 2-core box: a floor, not a ceiling.
  messagesPerShardPerSec: 3_200,
  // Tool calls (or forwarded messages) per second one x-mcp process on Redis sustains,
  // `pnpm --dir apps/bench cluster` ("1 process, Redis"), same box.
  callsPerProcessPerSec: 1_800,
  // Memory a primary may fill (leave headroom for replication buffers and fork copy-on-write).
  usableBytesPerShard: 8 * 1024 ** 3,
  // Headroom kept on every figure (0.5 = run at half of the measured maximum).
  utilisation: 0.5,
  ...JSON.parse(process.argv[2] ?? '{}'),
};

const sizes = [10_000, 100_000, 1_000_000];
const mib = (bytes) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
const gib = (bytes) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
const lines = [
  '| sessions | messages/s | Redis memory | shards (memory) | shards (throughput) | primaries | x-mcp processes |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const sessions of sizes) {
  const rate = sessions * inputs.messagesPerSessionPerSec;
  const memory =
    sessions *
    (inputs.bytesPerSession + inputs.eventsPerStream * (inputs.messageBytes + inputs.bytesPerEventOverhead));
  const byMemory = Math.ceil(memory / (inputs.usableBytesPerShard * inputs.utilisation));
  const byRate = Math.ceil(rate / (inputs.messagesPerShardPerSec * inputs.utilisation));
  const processes = Math.max(2, Math.ceil(rate / (inputs.callsPerProcessPerSec * inputs.utilisation)));
  lines.push(
    `| ${sessions.toLocaleString('en')} | ${rate.toLocaleString('en')} | ${memory < 1024 ** 3 ? mib(memory) : gib(memory)} | ${byMemory} | ${byRate} | ${Math.max(byMemory, byRate)} | ${processes} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n\ninputs: ${JSON.stringify(inputs)}\n`);

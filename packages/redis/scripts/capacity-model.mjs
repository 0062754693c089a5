// The capacity table of docs/scale-out.md, recomputed from the measured inputs in capacity-inputs.json
// (each with how it was measured or why it was assumed). Usage:
//   node packages/redis/scripts/capacity-model.mjs ['{"messagesPerSessionPerSec":0.5}']
// The JSON argument overrides inputs. Without one, the output is the table docs/scale-out.md shows
// (test/capacity-model.test.ts holds them equal).
import { readFileSync } from 'node:fs';

const measured = JSON.parse(readFileSync(new URL('./capacity-inputs.json', import.meta.url), 'utf8'));
const inputs = {
  ...Object.fromEntries(Object.entries(measured).map(([name, { value }]) => [name, value])),
  ...JSON.parse(process.argv[2] ?? '{}'),
};

/** Sessions the table sizes for. */
const SIZES = [10_000, 100_000, 1_000_000];
const count = (n) => n.toLocaleString('en');
const bytes = (n) =>
  n < 1024 ** 3 ? `${(n / 1024 ** 2).toFixed(0)} MiB` : `${(n / 1024 ** 3).toFixed(1)} GiB`;

const lines = [
  '| sessions | messages/s | Redis commands/s | Redis memory | primaries (memory) | primaries (messages) | primaries | x-mcp processes (sessions) | x-mcp processes (messages) | x-mcp processes |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const sessions of SIZES) {
  const rate = sessions * inputs.messagesPerSessionPerSec;
  const perEvent = inputs.bytesPerEvent + inputs.messageBytes - inputs.eventBytesMeasured;
  const memory = sessions * (inputs.bytesPerSession + inputs.eventsPerStream * perEvent);
  const byMemory = Math.ceil(memory / (inputs.usableBytesPerShard * inputs.utilisation));
  const byRate = Math.ceil(rate / (inputs.messagesPerShardPerSec * inputs.utilisation));
  const bySessions = Math.ceil(sessions / (inputs.sessionsPerProcess * inputs.utilisation));
  const byMessages = Math.ceil(rate / (inputs.messagesPerProcessPerSec * inputs.utilisation));
  lines.push(
    `| ${count(sessions)} | ${count(rate)} | ${count(rate * inputs.commandsPerMessage)} | ${bytes(memory)} | ${byMemory} | ${byRate} | ${Math.max(byMemory, byRate)} | ${bySessions} | ${byMessages} | ${Math.max(2, bySessions, byMessages)} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);

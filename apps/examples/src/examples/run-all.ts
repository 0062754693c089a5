// `pnpm examples`: runs every example as its own process, with a time limit, and prints one pass/fail
// line per example followed by what it printed. Exits non-zero if any example fails. Pass names to
// run a subset: `node dist/examples/run-all.js stdio websocket`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const EXAMPLES: ReadonlyArray<{ name: string; shows: string }> = [
  { name: 'stdio', shows: 'a client spawning a stdio server process' },
  { name: 'streamable-http-node', shows: 'Streamable HTTP on node:http, both eras on one endpoint' },
  { name: 'web-standard-handler', shows: 'the (Request) => Response handler, called in-process' },
  { name: 'websocket', shows: 'WebSocket: progress and pushed notifications' },
  { name: 'elicitation-sampling-both-eras', shows: 'elicitation + sampling, one tool, both eras' },
  { name: 'custom-transport', shows: 'a MessageChannel transport proven by the contract kit' },
  { name: 'protected-server', shows: 'OAuth bearer protection: JWT checks, 401/403 challenges, metadata' },
  {
    name: 'resilience',
    shows: 'failover WebSocket → HTTP and back, retries, a crashed stdio server restarted',
  },
  { name: 'resilience-observability', shows: 'heartbeat, /healthz, rate limit, RTT alerts, redacted logs' },
];
const TIMEOUT_MS = Number(process.env['EXAMPLE_TIMEOUT_MS'] ?? 30_000);

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  ms: number;
}

function run(name: string): Promise<Outcome> {
  const file = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  const started = performance.now();
  // SIGKILL on timeout: a hung example must not hang the runner. Its stdio children see stdin EOF and exit.
  const child = spawn(process.execPath, [file], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve) => {
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code, signal) => resolve({ code, signal, output, ms: performance.now() - started }));
  });
}

const indent = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !EXAMPLES.some((example) => example.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown example(s): ${unknown.join(', ')}; known: ${EXAMPLES.map((e) => e.name).join(', ')}`,
  );
  process.exit(2);
}
const selected = EXAMPLES.filter((example) => wanted.length === 0 || wanted.includes(example.name));

const failed: string[] = [];
for (const { name, shows } of selected) {
  const { code, signal, output, ms } = await run(name);
  const passed = code === 0;
  const why = passed
    ? ''
    : signal === 'SIGKILL'
      ? ` — timed out after ${TIMEOUT_MS} ms`
      : ` — ${signal === null ? `exit code ${code}` : `killed by ${signal}`}`;
  console.log(`${passed ? 'pass' : 'FAIL'}  ${name} (${(ms / 1000).toFixed(2)} s): ${shows}${why}`);
  if (output.trim() !== '') console.log(indent(output));
  if (!passed) failed.push(name);
}
console.log(
  failed.length === 0
    ? `\nall ${selected.length} examples passed`
    : `\n${failed.length} of ${selected.length} examples failed: ${failed.join(', ')}`,
);
process.exitCode = failed.length === 0 ? 0 : 1;

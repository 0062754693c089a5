/**
 * Machine instructions per `tools/call`, counted by valgrind's callgrind: unlike CPU time, the count does
 * not move when other processes load the machine, so a change of a few percent on the hot path shows
 * from one run each (timings need many alternating runs). Runs itself under `valgrind --tool=callgrind`,
 * warms up, zeroes the counters (`callgrind_control -z`), runs the window, dumps the counters
 * (`callgrind_control -d`) and prints instructions per call, client + server. In-memory and the socket
 * transports run the server in this process (the benchmark gives it a process of its own, so a
 * garbage collection that a bigger shared heap brings into the window shows here and not there); over
 * stdio the server is a child, counted too.
 *
 *   node dist/instructions.js <transport> <sdk> [--calls 2000] [--warmup 320] [--in-flight 64]
 *
 * The defaults are W2's window (2,000 calls, 64 in flight, after 320): as in the benchmark's CPU/call, the
 * count is then mostly V8 interpreting and compiling the hot path, which more or bigger functions on it
 * make dearer. W1's: `--in-flight 1 --warmup 300 --calls 3000`. The dumps stay in the printed directory
 * for `callgrind_annotate <dir>/cg.<pid>.1`. Needs valgrind (Linux).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSession } from './adapters/types.js';
import { openSession } from './open-session.js';
import { SDKS, type SdkName, TRANSPORTS, type TransportName } from './types.js';

const INSIDE = '--inside';
/**
 * V8 compiles and collects garbage on the main thread: the same work as with its helper threads, done
 * in a repeatable order, so two runs of the same code count (nearly) the same. With helper threads the
 * optimizing compiler finishes inside or outside the window depending on timing, which moves the
 * count by 2x from one run to the next.
 */
const SINGLE_THREADED = '--single-threaded';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`);
  return value;
}

const [transport, sdk] = process.argv.slice(2).filter((arg) => arg !== INSIDE) as [TransportName, SdkName];
if (!TRANSPORTS.includes(transport) || !SDKS.includes(sdk)) {
  console.error(
    `usage: node dist/instructions.js <${TRANSPORTS.join('|')}> <${SDKS.join('|')}> [--calls N] [--warmup N] [--in-flight N]`,
  );
  process.exit(2);
}
const calls = option('--calls', 2_000);
const warmup = option('--warmup', 320);
const inFlight = option('--in-flight', 64);

if (process.argv.includes(INSIDE)) await measure();
else await underValgrind();

/** Keeps `inFlight` echo calls outstanding until `total` have completed (W2's loop, without timing). */
async function saturate(session: BenchSession, total: number): Promise<void> {
  let issued = 0;
  const lane = async (): Promise<void> => {
    while (issued++ < total) await session.echo();
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, lane));
}

/** This process and its children (the stdio server): the processes whose counters the window uses. */
function measuredPids(): string[] {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
  return [String(process.pid), ...children.split(' ').filter((pid) => pid.trim() !== '')];
}

/**
 * Synchronous: nothing of this process runs between the zero and the window, so nothing but the window
 * is counted. (An HTTP server in this process may then find its keep-alive connection idle too long on a
 * busy machine and reset it: HTTP transports need an idle machine here.)
 */
function callgrindControl(args: string[]): void {
  execFileSync('callgrind_control', args, { stdio: 'ignore' });
}

async function measure(): Promise<void> {
  const { session, close } = await openSession(transport, sdk);
  await saturate(session, warmup);
  const pids = measuredPids();
  for (const pid of pids) callgrindControl(['-z', pid]);
  await saturate(session, calls);
  for (const pid of pids) callgrindControl(['-d', 'window', pid]);
  console.log(`client ${process.pid}`);
  // The counts are taken: how the connection ends does not change them.
  await close().catch(() => {});
  process.exit(0);
}

async function underValgrind(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'x-mcp-instructions-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--trace-children=yes',
      // callgrind_control is a Perl script: counting it would only slow the run down.
      '--trace-children-skip=*callgrind_control*,*perl*',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      process.execPath,
      SINGLE_THREADED,
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
      INSIDE,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      // The stdio server child too (server-command.ts adds these flags to it).
      env: {
        ...process.env,
        BENCH_SERVER_FLAGS: `${process.env['BENCH_SERVER_FLAGS'] ?? ''} ${SINGLE_THREADED}`,
      },
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) =>
      reject(new Error(`cannot run valgrind (is it installed?): ${error.message}`)),
    );
    child.on('close', resolve);
  });
  const clientPid = /client (\d+)/.exec(output)?.[1];
  if (code !== 0 || clientPid === undefined) throw new Error(`valgrind run failed (exit ${code})`);
  let client = 0;
  let server = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.1'))) {
    const summary = /^summary: (\d+)$/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1];
    if (summary === undefined) throw new Error(`no summary in ${file}`);
    if (file === `cg.${clientPid}.1`) client += Number(summary);
    else server += Number(summary);
  }
  const perCall = (count: number): string => Math.round(count / calls).toLocaleString('en-US');
  console.log(
    `${transport} ${sdk} in-flight ${inFlight} instructions/call ${perCall(client + server)}` +
      (server > 0 ? ` (client ${perCall(client)}, server ${perCall(server)})` : '') +
      ` over ${calls} calls; dumps in ${dir}`,
  );
}

import { spawn, spawnSync } from 'node:child_process';
import { BIN } from './cli-process.js';

/**
 * Whether util-linux `script` is here: it runs a command on a pseudo-terminal, which is how these tests
 * play a person at a terminal (Node has no pty of its own).
 */
export const HAS_SCRIPT =
  process.platform === 'linux' && spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

const quote = (arg: string): string => `'${arg.replaceAll("'", "'\\''")}'`;

/**
 * Runs `x-mcp …` on a terminal, typing each answer once the output ends in a question (`: ` or `] `).
 * Resolves with everything the terminal showed (stdout and stderr together, as on a screen).
 */
export function runInTerminal(
  args: readonly string[],
  answers: readonly string[] = [],
  options: { env?: Record<string, string> } = {},
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const queue = [...answers];
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    const answer = queue[0];
    if (answer !== undefined && /(\]|:) $/.test(screen)) {
      queue.shift();
      child.stdin.write(`${answer}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, screen: screen.replaceAll('\r', '') }));
  });
}

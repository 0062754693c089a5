import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Spawns `node <args>`, a child that prints `{"port":N}` once listening; `lines` gets its later stdout
 * lines. Rejects when the child exits first.
 *
 * @example
 * const { port, child } = await spawnListening([SERVER, 'memory', 'a'], 'server a');
 */
export async function spawnListening(
  args: string[],
  what: string,
  lines?: (line: string) => void,
): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<number>((resolve, reject) => {
    reader.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before listening`)));
  });
  if (lines !== undefined) reader.on('line', lines);
  return { port, child };
}

// What the tests against the real everything-server share.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The official reference server's stdio entry (`@modelcontextprotocol/server-everything`). */
export const EVERYTHING = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** Whether a process with this pid is still running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

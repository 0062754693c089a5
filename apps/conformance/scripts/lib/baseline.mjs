// Reads a baseline file in the conformance CLI's `--expected-failures` format:
//   server:            client: []
//     - scenario       # reason
//     - scenario:check-id
// Only that subset of YAML is accepted, so the runner needs no YAML dependency; anything else is an
// error rather than a silent misread (a misread baseline would hide failures).
import { readFileSync } from 'node:fs';

/** @returns {{ server: string[], client: string[] }} */
export function readBaseline(path) {
  const lists = { server: [], client: [] };
  let current;
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/(^|\s)#.*$/, '').trimEnd();
    if (line.trim() === '') continue;
    const key = /^(server|client):\s*(\[\s*\])?$/.exec(line);
    if (key) {
      current = key[1];
      continue;
    }
    const item = /^\s+-\s+(['"]?)([^'"\s]+)\1$/.exec(line);
    if (item && current) {
      lists[current].push(item[2]);
      continue;
    }
    throw new Error(
      `${path}:${index + 1}: cannot read "${raw.trim()}" (expected "server:", "client:" or "  - name")`,
    );
  }
  return lists;
}

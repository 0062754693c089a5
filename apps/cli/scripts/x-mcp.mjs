#!/usr/bin/env node
// `pnpm x-mcp …` at the repository root: builds the CLI and the packages it uses with turbo, silently
// (turbo's banner and summary are shown only when the build fails), then runs the CLI in this process.
// So `pnpm -s x-mcp tools --json <url> | jq` sees only what x-mcp prints, and stderr only x-mcp's
// messages, on every OS (no shell redirection).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const build = spawnSync('turbo', ['run', 'build', '--filter=@x/cli...', '--output-logs=errors-only'], {
  cwd: root,
  encoding: 'utf8',
  shell: process.platform === 'win32',
});
if (build.error !== undefined || build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}${build.error?.message ?? ''}\n`);
  process.stderr.write('x-mcp: the build failed (pnpm turbo run build --filter=@x/cli...)\n');
  process.exit(build.status ?? 1);
}
// dist/bin.js reads process.argv.slice(2): the same arguments this script got.
await import('../dist/bin.js');

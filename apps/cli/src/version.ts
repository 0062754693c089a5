import { readFileSync } from 'node:fs';

/** The CLI's version, from its package.json (one level above both `src/` and `dist/`). */
export function cliVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const version = (manifest as { version?: unknown }).version;
  return typeof version === 'string' ? version : '0.0.0';
}

import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuthState, TokenStore } from '../client/token-store.js';

/** Options of `FileTokenStore`. */
export interface FileTokenStoreOptions {
  /** The JSON file (created with mode 0600, its folder with 0700). */
  path: string;
}

/**
 * A `TokenStore` in one JSON file readable only by its owner (mode 0600), for command-line and desktop
 * clients. Writes go to a temporary file renamed over the old one, one at a time, so a crash never
 * leaves half a file.
 *
 * @example
 * ```ts
 * import { FileTokenStore } from '@x/auth/node';
 * const store = new FileTokenStore({ path: join(homedir(), '.config', 'my-app', 'tokens.json') });
 * ```
 */
export class FileTokenStore implements TokenStore {
  readonly #path: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: FileTokenStoreOptions) {
    this.#path = options.path;
  }

  async get(key: string): Promise<AuthState | undefined> {
    await this.#queue;
    const entries = await this.#read();
    return Object.hasOwn(entries, key) ? entries[key] : undefined;
  }

  set(key: string, state: AuthState): Promise<void> {
    return this.#update((entries) => {
      entries[key] = state;
    });
  }

  delete(key: string): Promise<void> {
    return this.#update((entries) => {
      delete entries[key];
    });
  }

  #update(change: (entries: Record<string, AuthState>) => void): Promise<void> {
    const next = this.#queue.then(async () => {
      const entries = await this.#read();
      change(entries);
      await mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
      const temporary = `${this.#path}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(entries, null, 2), { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, this.#path);
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  async #read(): Promise<Record<string, AuthState>> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Object.create(null);
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    const entries: Record<string, AuthState> = Object.create(null);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      for (const [key, value] of Object.entries(parsed)) entries[key] = value as AuthState;
    return entries;
  }
}

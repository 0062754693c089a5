import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { AuthError } from '../auth-error.js';
import type { AuthState, TokenStore } from '../client/token-store.js';

/** Options of `FileTokenStore`. */
export interface FileTokenStoreOptions {
  /** The JSON file (created with mode 0600, its folder with 0700). */
  path: string;
}

// Windows has neither O_NOFOLLOW nor POSIX modes; there the checks that need them are skipped.
const POSIX = process.platform !== 'win32';

/**
 * A `TokenStore` in one JSON file readable only by its owner (mode 0600), for command-line and desktop
 * clients. Writes go to a temporary file renamed over the old one, one at a time, so a crash never
 * leaves half a file. Refuses (`AuthError` `insecure_storage`) a token file or folder that is a
 * symlink, and a folder others may write to (a folder of its own loses group and world write; one of
 * another user, or a shared sticky folder such as `/tmp`, is refused): whoever can write the folder can
 * plant a link that makes the tokens land in, or be read from, a file of their choosing.
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
      await this.#secureFolder();
      await this.#refuseLink();
      // A random name created exclusively (O_CREAT | O_EXCL never follows a link): nothing planted in
      // advance can redirect the write.
      const temporary = `${this.#path}.${randomBytes(12).toString('hex')}.tmp`;
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(JSON.stringify(entries, null, 2));
        await handle.chmod(0o600);
        await handle.close();
        await rename(temporary, this.#path);
      } catch (error) {
        await handle.close().catch(() => {});
        await unlink(temporary).catch(() => {});
        throw error;
      }
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  async #read(): Promise<Record<string, AuthState>> {
    let text: string;
    try {
      // O_NOFOLLOW: a link at the token file fails the open itself (ELOOP), with no window between a
      // check and the read.
      const handle = await open(this.#path, constants.O_RDONLY | (POSIX ? constants.O_NOFOLLOW : 0));
      try {
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return Object.create(null);
      if (code === 'ELOOP') throw this.#linkError(this.#path);
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    const entries: Record<string, AuthState> = Object.create(null);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      for (const [key, value] of Object.entries(parsed)) entries[key] = value as AuthState;
    return entries;
  }

  async #refuseLink(): Promise<void> {
    const info = await lstat(this.#path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (info?.isSymbolicLink() === true) throw this.#linkError(this.#path);
  }

  /** Creates the folder 0700, or checks the one there: no link, not writable by other users. */
  async #secureFolder(): Promise<void> {
    const folder = dirname(this.#path);
    let info = await lstat(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (info === undefined) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      info = await lstat(folder);
    }
    if (info.isSymbolicLink()) throw this.#linkError(folder);
    if (!info.isDirectory()) throw new AuthError('insecure_storage', `${folder} is not a folder`);
    if (!POSIX) return;
    const uid = process.getuid?.();
    const othersWrite = (info.mode & 0o022) !== 0;
    const sticky = (info.mode & 0o1000) !== 0;
    if (info.uid !== uid && info.uid !== 0)
      throw new AuthError(
        'insecure_storage',
        `the token folder ${folder} belongs to another user (uid ${info.uid}); choose a folder of your own`,
      );
    if (!othersWrite) return;
    // A shared folder (sticky, like /tmp) is meant to be writable by all: never change it, refuse it.
    if (info.uid !== uid || sticky)
      throw new AuthError(
        'insecure_storage',
        `the token folder ${folder} is writable by others; choose a folder only you can write to`,
      );
    await chmod(folder, info.mode & 0o755);
  }

  #linkError(path: string): AuthError {
    return new AuthError(
      'insecure_storage',
      `${path} is a symlink; the token store does not follow links (remove it or point the store at the real path)`,
    );
  }
}

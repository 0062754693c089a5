/** Tokens as the provider keeps them. `expiresAt` is seconds since the epoch. */
export interface StoredTokens {
  accessToken: string;
  tokenType: string;
  expiresAt?: number | undefined;
  refreshToken?: string | undefined;
  /** Space-separated scopes granted (or requested, when the AS did not say). */
  scope?: string | undefined;
}

/** A client identity at one authorization server (registered, pre-registered or a CIMD URL). */
export interface StoredClient {
  clientId: string;
  clientSecret?: string | undefined;
  /** Token endpoint auth method (`none`, `client_secret_basic`, `client_secret_post`, `private_key_jwt`). */
  tokenEndpointAuthMethod?: string | undefined;
}

/** What the provider remembers for one MCP server: which AS, who we are there, our tokens. */
export interface AuthState {
  issuer: string;
  client?: StoredClient | undefined;
  tokens?: StoredTokens | undefined;
}

/**
 * Where a provider keeps its state, one entry per MCP server (keyed by the server's resource URL; the
 * entry names its authorization server, and a different AS replaces it). Implement it over the OS
 * keychain, a database or `FileTokenStore` (`@x/auth/node`).
 *
 * @example
 * ```ts
 * const store: TokenStore = {
 *   get: async (key) => JSON.parse((await kv.get(key)) ?? 'null') ?? undefined,
 *   set: (key, state) => kv.put(key, JSON.stringify(state)),
 *   delete: (key) => kv.delete(key),
 * };
 * ```
 */
export interface TokenStore {
  get(key: string): Promise<AuthState | undefined>;
  set(key: string, state: AuthState): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * The default store: memory only, gone with the process.
 *
 * @example
 * ```ts
 * const provider = new OAuthClientProvider({ serverUrl, store: new InMemoryTokenStore(), ... });
 * ```
 */
export class InMemoryTokenStore implements TokenStore {
  #entries = new Map<string, AuthState>();

  async get(key: string): Promise<AuthState | undefined> {
    return this.#entries.get(key);
  }

  async set(key: string, state: AuthState): Promise<void> {
    this.#entries.set(key, state);
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}

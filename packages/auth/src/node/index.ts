export { FileTokenStore } from './file-token-store.js';
export type { FileTokenStoreOptions } from './file-token-store.js';
export { DEFAULT_LOOPBACK_REDIRECT_TIMEOUT_MS, startLoopbackRedirect } from './loopback-redirect.js';
export type { LoopbackRedirect, LoopbackRedirectOptions } from './loopback-redirect.js';

export { FileTokenStore } from './file-token-store.js';
export type { FileTokenStoreOptions } from './file-token-store.js';

// `@modelcontextprotocol/sdk/shared/metadataUtils.js` of the official SDK 1.x.
export { getDisplayName } from './display-name.js';

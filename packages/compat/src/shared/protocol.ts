// `@modelcontextprotocol/sdk/shared/protocol.js` of the official SDK 1.x: the names applications import
// (the `Protocol` base class itself is not provided; see the README).
export { DEFAULT_REQUEST_TIMEOUT_MS as DEFAULT_REQUEST_TIMEOUT_MSEC } from '@x/protocol/core';
export type { ProgressCallback, RequestOptions } from '@x/protocol/core';
export type { RequestHandlerExtra } from './request-handler-extra.js';

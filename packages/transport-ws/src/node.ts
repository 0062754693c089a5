// The server entry (`@x/transport-ws/node`): the WebSocket server runs on Node's `http` and `ws`, so it
// lives behind `./node` like the Node adapters of the HTTP transports.
export { DEFAULT_MAX_SESSIONS } from './constants.js';
export { DEFAULT_MAX_CONNECTED_SESSIONS } from '@x/protocol/http';
export { WebSocketServerTransport } from './server-transport.js';
export type { WebSocketServerTransportOptions } from './server-transport.js';
export { createWebSocketHandler, listenWebSocket } from './websocket-listener.js';
export type {
  WebSocketHandler,
  WebSocketHandlerOptions,
  WebSocketListenOptions,
  WebSocketSessionContext,
} from './websocket-listener.js';
export type { CallerInfo, CallerKey, TrustedProxiesOption, TrustedProxiesOptions } from '@x/protocol/http';

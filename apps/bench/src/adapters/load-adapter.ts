import type { SdkName } from '../types.js';
import type { ConnectFn, SdkAdapter, ServeFn } from './types.js';

/** Imports only the SDK a process needs, so no process carries another SDK's code or memory. */
export async function loadAdapter(sdk: SdkName): Promise<SdkAdapter> {
  switch (sdk) {
    case 'raw':
      return (await import('./raw/index.js')).adapter;
    case 'x-mcp':
      return (await import('./xmcp/index.js')).adapter;
    case 'x-mcp-modern':
      return (await import('./xmcp/index.js')).modernAdapter;
    case 'v1':
      return (await import('./v1/index.js')).adapter;
    case 'v2':
      return (await import('./v2/index.js')).adapter;
  }
}

/** The server side of one SDK, without its client. */
export async function loadServe(sdk: SdkName): Promise<ServeFn> {
  switch (sdk) {
    case 'raw':
      return (await import('./raw/serve.js')).serve;
    case 'x-mcp':
    case 'x-mcp-modern':
      return (await import('./xmcp/serve.js')).serve;
    case 'v1':
      return (await import('./v1/serve.js')).serve;
    case 'v2':
      return (await import('./v2/serve.js')).serve;
  }
}

/**
 * The client side of one SDK alone, for a process that is only a client (W7's short sessions): no
 * server code and no in-process pair.
 */
export async function loadConnect(sdk: SdkName): Promise<ConnectFn> {
  switch (sdk) {
    case 'raw':
      return (await import('./raw/index.js')).adapter.connect;
    case 'x-mcp':
    case 'x-mcp-modern': {
      const { connectX, transportFor } = await import('./xmcp/connect.js');
      const era = sdk === 'x-mcp' ? 'legacy' : 'modern';
      return async (target) => connectX(await transportFor(target), era);
    }
    case 'v1': {
      const { connectV1, transportFor } = await import('./v1/connect.js');
      return async (target) => connectV1(await transportFor(target));
    }
    case 'v2': {
      const { connectV2, transportFor } = await import('./v2/connect.js');
      return async (target) => connectV2(await transportFor(target));
    }
  }
}

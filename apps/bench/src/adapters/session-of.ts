import { bigLength, checkEcho } from './raw/rpc-client.js';
import { bigParams, echoParams } from '../payload.js';
import type { BenchSession } from './types.js';

/** The part of every SDK's client the workloads use. */
export interface ToolCaller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

export function sessionOf(client: ToolCaller): BenchSession {
  return {
    echo: async () => checkEcho(await client.callTool(echoParams())),
    big: async () => bigLength(await client.callTool(bigParams())),
    close: () => client.close(),
  };
}

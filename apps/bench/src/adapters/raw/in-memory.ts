import type { BenchSession, InMemoryFactory } from '../types.js';
import { rawBig, rawEcho, rawHandshake, RpcClient, type RawResponse } from './rpc-client.js';
import { respond } from './responder.js';

const READY = Promise.resolve();

/** A plain microtask (a promise reaction; Node's `queueMicrotask` adds an `AsyncResource` per call). */
const hop = (task: () => void): void => {
  void READY.then(task);
};

/**
 * Raw in-process reference: message objects cross a microtask each way (as the SDKs' in-memory pairs
 * do), the server answers with `respond`.
 */
export const rawInMemory: InMemoryFactory = async () => ({
  connect: async (): Promise<BenchSession> => {
    const rpc: RpcClient = new RpcClient((message) => {
      hop(() => {
        const response = respond(message);
        if (response !== undefined) hop(() => rpc.deliver(response as RawResponse));
      });
    });
    await rawHandshake(rpc);
    return { echo: () => rawEcho(rpc), big: () => rawBig(rpc), close: async () => {} };
  },
  close: async () => {},
});

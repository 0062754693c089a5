import { spawn } from 'node:child_process';
import type { BenchSession, ServerHandle, ServerTarget } from '../types.js';
import { readJsonLines } from './line-reader.js';
import { respond } from './responder.js';
import { rawBig, rawEcho, rawHandshake, RpcClient, type RawResponse } from './rpc-client.js';

/** Raw stdio server: one JSON line in, one JSON line out. */
export async function serveRawStdio(): Promise<ServerHandle> {
  readJsonLines(process.stdin, (message) => {
    const response = respond(message);
    if (response !== undefined) process.stdout.write(`${JSON.stringify(response)}\n`);
  });
  process.stdin.on('end', () => process.exit(0));
  return { close: async () => {} };
}

/** Raw stdio client: spawns the server and exchanges JSON lines over its pipes. */
export async function connectRawStdio(target: ServerTarget): Promise<BenchSession> {
  if (target.command === undefined) throw new Error('stdio target needs a command');
  const child = spawn(target.command.command, target.command.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const rpc = new RpcClient((message) => child.stdin.write(`${JSON.stringify(message)}\n`));
  readJsonLines(child.stdout, (message) => rpc.deliver(message as RawResponse));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (error) => rpc.failAll(error));
  await rawHandshake(rpc);
  return {
    echo: () => rawEcho(rpc),
    big: () => rawBig(rpc),
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

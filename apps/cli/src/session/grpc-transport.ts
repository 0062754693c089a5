import type { Transport } from '@x/protocol/core';

/**
 * The client transport of a `grpc://` or `grpcs://` target: the gRPC tunnel, `-H` headers (and `--token`)
 * as call metadata. `grpcs` uses TLS with Node's trusted roots, which include `NODE_EXTRA_CA_CERTS`:
 * the same way to trust a private CA as for https targets. Loaded only for gRPC targets.
 *
 * @example
 * ```ts
 * await client.connect(await connectGrpc(new URL('grpc://127.0.0.1:50051'), { authorization: 'Bearer t' }));
 * ```
 */
export async function connectGrpc(url: URL, headers: Readonly<Record<string, string>>): Promise<Transport> {
  const { GrpcClientTransport } = await import('@x/transport-grpc');
  return new GrpcClientTransport(`${url.protocol}//${url.host}`, { headers: { ...headers } });
}

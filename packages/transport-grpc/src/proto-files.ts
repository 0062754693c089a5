import { fileURLToPath } from 'node:url';
import {
  type GrpcObject,
  loadPackageDefinition,
  type ServiceClientConstructor,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';

/**
 * The folder of the shipped `.proto` files. `src/` and `dist/` are both one level below the package
 * root, so the same relative URL works from source and from the build.
 */
export const PROTO_DIR: string = fileURLToPath(new URL('../proto/', import.meta.url));

// keepCase: the frame's fields keep their published names (`related_request_id`); defaults: an absent
// string field reads as '' (proto3), so a frame from any peer has every field.
const LOAD_OPTIONS: Options = { keepCase: true, defaults: true, includeDirs: [PROTO_DIR] };

/** One frame of `mcp.transport.v1.Mcp/Session`, field for field as published. */
export interface JsonRpcLine {
  line: string;
  related_request_id: string;
  resumption_token: string;
}

interface Loaded {
  tunnel: ServiceClientConstructor;
  health: ServiceClientConstructor;
}

let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded !== undefined) return loaded;
  const tunnel = loadPackageDefinition(loadSync('mcp.transport.v1.proto', LOAD_OPTIONS));
  const health = loadPackageDefinition(loadSync('grpc/health/v1/health.proto', LOAD_OPTIONS));
  loaded = {
    tunnel: pick(tunnel, ['mcp', 'transport', 'v1', 'Mcp']),
    health: pick(health, ['grpc', 'health', 'v1', 'Health']),
  };
  return loaded;
}

function pick(root: GrpcObject, path: string[]): ServiceClientConstructor {
  let node: unknown = root;
  for (const key of path) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'function') throw new Error(`proto: ${path.join('.')} is not a service`);
  return node as ServiceClientConstructor;
}

/** The client constructor of `mcp.transport.v1.Mcp`, from the shipped proto. */
export function tunnelClient(): ServiceClientConstructor {
  return load().tunnel;
}

/** The service definition of `mcp.transport.v1.Mcp`, for `server.addService`. */
export function tunnelService(): ServiceDefinition {
  return load().tunnel.service;
}

/** The service definition of `grpc.health.v1.Health`. */
export function healthService(): ServiceDefinition {
  return load().health.service;
}

/** The client constructor of `grpc.health.v1.Health`, for probes and tests. */
export function healthClient(): ServiceClientConstructor {
  return load().health;
}

import type { sendUnaryData, Server, ServerUnaryCall, ServerWritableStream } from '@grpc/grpc-js';
import { healthService } from './proto-files.js';

/** `grpc.health.v1.HealthCheckResponse.ServingStatus`, by name (proto-loader's enum encoding). */
export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

interface HealthCheckRequest {
  service: string;
}
interface HealthCheckResponse {
  status: ServingStatus;
}

/**
 * `grpc.health.v1.Health` (`Check`, `Watch`): what Kubernetes gRPC probes and service meshes ask. The
 * empty service name is the server as a whole. `listenGrpc` adds one and reports the tunnel service
 * (`mcp.transport.v1.Mcp`) and `''` as `SERVING`, then `NOT_SERVING` from the start of a drain.
 *
 * @example
 * ```ts
 * const health = addHealthService(server, { '': 'SERVING', 'mcp.transport.v1.Mcp': 'SERVING' });
 * health.set('mcp.transport.v1.Mcp', 'NOT_SERVING'); // Watchers learn it at once
 * ```
 */
export class GrpcHealth {
  readonly #statuses = new Map<string, ServingStatus>();
  readonly #watchers = new Map<string, Set<ServerWritableStream<HealthCheckRequest, HealthCheckResponse>>>();

  constructor(statuses: Record<string, ServingStatus> = {}) {
    for (const [service, status] of Object.entries(statuses)) this.#statuses.set(service, status);
  }

  /** The status `Check` answers for `service` (`undefined`: `NOT_FOUND`). */
  get(service: string): ServingStatus | undefined {
    return this.#statuses.get(service);
  }

  /** Sets a service's status and tells its watchers. */
  set(service: string, status: ServingStatus): void {
    if (this.#statuses.get(service) === status) return;
    this.#statuses.set(service, status);
    for (const call of this.#watchers.get(service) ?? []) call.write({ status });
  }

  /** Sets every known service to `status` (a drain: `NOT_SERVING`). */
  setAll(status: ServingStatus): void {
    for (const service of [...this.#statuses.keys()]) this.set(service, status);
  }

  /** Ends every `Watch` stream (the server is shutting down). */
  endWatches(): void {
    for (const calls of this.#watchers.values()) for (const call of calls) call.end();
    this.#watchers.clear();
  }

  /** The handlers `server.addService(healthDefinition, …)` takes. */
  handlers(): {
    Check: (
      call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
      done: sendUnaryData<HealthCheckResponse>,
    ) => void;
    Watch: (call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => void;
  } {
    return {
      Check: (call, done) => {
        const status = this.#statuses.get(call.request.service);
        if (status === undefined)
          done({ code: 5, details: `unknown service ${JSON.stringify(call.request.service)}` });
        else done(null, { status });
      },
      Watch: (call) => {
        const service = call.request.service;
        call.write({ status: this.#statuses.get(service) ?? 'SERVICE_UNKNOWN' });
        const calls = this.#watchers.get(service) ?? new Set();
        this.#watchers.set(service, calls);
        calls.add(call);
        call.on('cancelled', () => calls.delete(call));
      },
    };
  }
}

/**
 * Adds `grpc.health.v1.Health` to a `grpc.Server` and returns its status table.
 *
 * @example
 * ```ts
 * const health = addHealthService(server, { '': 'SERVING' });
 * ```
 */
export function addHealthService(server: Server, statuses: Record<string, ServingStatus> = {}): GrpcHealth {
  const health = new GrpcHealth(statuses);
  server.addService(healthService(), health.handlers());
  return health;
}

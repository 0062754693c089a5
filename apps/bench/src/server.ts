/**
 * Server process entry: `node --expose-gc dist/server.js '{"sdk":…,"transport":…,"controlPort":…}'`.
 * Serves the benchmark tools on one transport and reports over the side channel (when given a port).
 */
import { loadServe } from './adapters/load-adapter.js';
import { connectControl } from './control/control-client.js';
import type { SdkName, TransportName } from './types.js';

export interface ServerSpec {
  sdk: SdkName;
  transport: Exclude<TransportName, 'in-memory'>;
  /** 0: no side channel (stdio W4 and cold starts spawn servers nobody asks for stats). */
  controlPort: number;
  /** Sessions the workload holds open at once (W6); the server's limits are raised to fit. */
  sessions?: number | undefined;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as ServerSpec;
try {
  const control = spec.controlPort > 0 ? await connectControl(spec.controlPort) : undefined;
  const serve = await loadServe(spec.sdk);
  const handle = await serve(spec.transport, { sessions: spec.sessions });
  control?.ready(handle.port);
} catch (error) {
  console.error(`[bench server ${spec.sdk}/${spec.transport}]`, error);
  process.exit(1);
}

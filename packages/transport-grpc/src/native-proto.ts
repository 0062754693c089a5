import { fileURLToPath } from 'node:url';
import type { Options } from '@grpc/proto-loader';

/** The folder of the shipped native binding protos (`model_context_protocol`), from `src/` and `dist/`. */
export const NATIVE_PROTO_DIR: string = fileURLToPath(new URL('../proto/google-mcp/', import.meta.url));

/** How both ends load them: published field names, enums by name, Struct members as proto-loader names them. */
export const NATIVE_PROTO_LOAD_OPTIONS: Options = {
  keepCase: true,
  oneofs: true,
  enums: String,
  longs: Number,
};

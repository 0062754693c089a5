/**
 * How much to fuzz. `pnpm test` runs the seeded subset (no variables set): a few dozen small inputs per
 * transport. `pnpm fuzz` sets `FUZZ_RUNS` (inputs per transport, ≥ 10,000) and `FUZZ_LARGE=1` (payloads up
 * to 1 MiB, nesting a million deep).
 */
export interface FuzzConfig {
  /** Inputs per transport (approximate: whole sequences are run). */
  readonly inputs: number;
  /** Replies per transport in the client fuzz (each may wait out a call timeout, so fewer when seeded). */
  readonly clientInputs: number;
  /** Hostile documents or tokens per OAuth property (metadata, JWT, JWKS, introspection). */
  readonly authInputs: number;
  readonly seed: number;
  readonly large: boolean;
  /** Long mode: `FUZZ_RUNS` was set. */
  readonly long: boolean;
}

export function readFuzzConfig(env: NodeJS.ProcessEnv = process.env): FuzzConfig {
  const runs = env['FUZZ_RUNS'];
  const long = runs !== undefined && runs !== '';
  return {
    inputs: long ? Number(runs) : 400,
    clientInputs: long ? Number(runs) : 100,
    authInputs: long ? Number(runs) : 100,
    seed: env['FUZZ_SEED'] === undefined ? 20_241_124 : Number(env['FUZZ_SEED']),
    large: env['FUZZ_LARGE'] === '1',
    long,
  };
}

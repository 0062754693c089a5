import type { ResolvedTransportContractOptions, TransportContractOptions } from './contract-types.js';

type NumericOption = Exclude<keyof ResolvedTransportContractOptions, 'skip'>;

const DEFAULTS: Readonly<Record<NumericOption, number>> = {
  timeoutMs: 10_000,
  settleMs: 50,
  sendSettleMs: 2_000,
  messageCount: 1_000,
  largeMessageBytes: 1024 * 1024,
  concurrentRequests: 1_000,
};

/** Fills in defaults and rejects nonsense early, before any transport is built. */
export function resolveContractOptions(
  options: TransportContractOptions = {},
): ResolvedTransportContractOptions {
  const resolved: ResolvedTransportContractOptions = { ...DEFAULTS, skip: options.skip ?? {} };
  for (const key of Object.keys(DEFAULTS) as NumericOption[]) {
    const value = options[key];
    if (value === undefined) continue;
    const minimum = key === 'settleMs' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < minimum) {
      throw new TypeError(`Transport contract option ${key} must be an integer >= ${minimum}, got ${value}`);
    }
    resolved[key] = value;
  }
  return resolved;
}

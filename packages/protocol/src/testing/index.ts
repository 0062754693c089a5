export { ContractScenarioError, TransportContractError } from './contract-errors.js';
export type { SkippedScenario } from './contract-errors.js';
export type {
  TransportContractOptions,
  TransportContractResult,
  TransportContractScenario,
  TransportPair,
  TransportPairContext,
  TransportPairFactory,
} from './contract-types.js';
export { runTransportContract } from './run-transport-contract.js';
export { transportContractScenarios } from './transport-contract-scenarios.js';

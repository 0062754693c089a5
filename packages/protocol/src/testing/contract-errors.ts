/**
 * One transport contract scenario failed. The message starts with the scenario name so a report that
 * lists several failures stays readable.
 *
 * @example
 * ```ts
 * try {
 *   await runTransportContract(factory);
 * } catch (error) {
 *   if (error instanceof TransportContractError) {
 *     for (const failure of error.errors) console.error(failure.scenario, failure.message);
 *   }
 * }
 * ```
 */
export class ContractScenarioError extends Error {
  override readonly name = 'ContractScenarioError';
  readonly scenario: string;

  constructor(scenario: string, message: string, options?: { cause?: unknown }) {
    super(`[${scenario}] ${message}`, options);
    this.scenario = scenario;
  }
}

/**
 * Thrown by `runTransportContract` when at least one scenario failed; `errors` holds every failure
 * (not just the first), `passed` and `skipped` say what else happened in the run.
 *
 * @example
 * ```ts
 * const error = await runTransportContract(factory).catch((e: unknown) => e);
 * if (error instanceof TransportContractError) console.log(error.failedScenarios);
 * ```
 */
export class TransportContractError extends AggregateError {
  override readonly name = 'TransportContractError';
  declare readonly errors: ContractScenarioError[];
  readonly passed: readonly string[];
  readonly skipped: readonly SkippedScenario[];

  constructor(
    failures: readonly ContractScenarioError[],
    passed: readonly string[],
    skipped: readonly SkippedScenario[],
  ) {
    const total = failures.length + passed.length;
    const lines = failures.map((failure) => `- ${failure.message}`);
    super(
      [...failures],
      `${failures.length} of ${total} transport contract scenarios failed:\n${lines.join('\n')}`,
    );
    this.passed = passed;
    this.skipped = skipped;
  }

  /** Names of the scenarios that failed, in run order. */
  get failedScenarios(): string[] {
    return this.errors.map((failure) => failure.scenario);
  }
}

/**
 * A scenario left out of a run on purpose, with the reason the transport author gave.
 *
 * @example
 * ```ts
 * const { passed, skipped } = await runTransportContract(async () => {
 *   const [client, server] = InMemoryTransport.createLinkedPair();
 *   return { client, server };
 * }, { skip: { 'large-message': 'not relevant in process' } });
 * for (const { name, reason } of skipped) console.log(`skipped ${name}: ${reason}`);
 * ```
 */
export interface SkippedScenario {
  name: string;
  reason: string;
}

import type { Transport } from '../transport.js';
import { ContractScenarioError } from './contract-errors.js';
import type {
  ResolvedTransportContractOptions,
  TransportContractScenario,
  TransportPair,
  TransportPairFactory,
} from './contract-types.js';
import { resolveContractOptions } from './resolve-options.js';
import { ScenarioContext } from './scenario-context.js';
import { errorText, settleWithin } from './transport-probe.js';

export type ScenarioBody = (context: ScenarioContext) => Promise<void>;

/**
 * Wraps a scenario body into a self-contained `run`: fresh pair, handlers attached, both ends started,
 * the body raced against the scenario's timeout and first failure, then both ends closed and the pair
 * disposed whatever happened, so a failing scenario leaks nothing into the next.
 */
export function defineScenario(
  name: string,
  description: string,
  body: ScenarioBody,
): TransportContractScenario {
  return {
    name,
    description,
    run: (factory, options) => runScenario(name, body, factory, resolveContractOptions(options)),
  };
}

async function runScenario(
  name: string,
  body: ScenarioBody,
  factory: TransportPairFactory,
  options: ResolvedTransportContractOptions,
): Promise<void> {
  const context = new ScenarioContext(name, options);
  const timer = setTimeout(() => context.failTimeout(), options.timeoutMs);
  let pair: TransportPair | undefined;
  let failure: ContractScenarioError | undefined;
  const work = (async () => {
    // Through `then` so a factory that throws synchronously is reported like one that rejects.
    const pairContext = { scenario: name, signal: context.signal };
    const built = await Promise.resolve(pairContext)
      .then(factory)
      .catch((error: unknown) => {
        throw context.fail(`the transport pair factory failed: ${errorText(error)}`, error);
      });
    if (context.failure !== undefined) {
      // The factory answered after the timeout: nobody else will release what it built.
      void cleanUp(built, options);
      return;
    }
    pair = built;
    context.attach(built);
    if (built.started !== true) {
      await start(context, 'server', built.server);
      await start(context, 'client', built.client);
    }
    context.step('running the scenario');
    await body(context);
  })();
  try {
    await Promise.race([work, context.failed]);
  } catch (error) {
    failure =
      error instanceof ContractScenarioError
        ? error
        : context.fail(`unexpected error: ${errorText(error)}`, error);
  } finally {
    clearTimeout(timer);
    // A violation can land in the same tick the body finished; it still counts.
    failure ??= context.failure;
    context.finish();
    work.catch(() => undefined);
  }
  const cleanupProblem = pair === undefined ? undefined : await cleanUp(pair, options);
  if (failure !== undefined) throw failure;
  if (cleanupProblem !== undefined) throw new ContractScenarioError(name, cleanupProblem);
}

async function start(context: ScenarioContext, side: string, transport: Transport): Promise<void> {
  context.step(`starting the ${side} end`);
  try {
    await transport.start();
  } catch (error) {
    throw context.fail(`${side}.start() failed: ${errorText(error)}`, error);
  }
}

/**
 * Closes both ends (again: `close()` is idempotent by contract) and disposes the pair. Returns the first
 * problem, e.g. a `close()` that rejects or hangs, which fails an otherwise passing scenario.
 */
async function cleanUp(
  pair: TransportPair,
  options: ResolvedTransportContractOptions,
): Promise<string | undefined> {
  const steps: Array<[string, () => Promise<void>]> = [
    ['client.close()', () => pair.client.close()],
    ['server.close()', () => pair.server.close()],
  ];
  if (pair.dispose !== undefined) steps.push(['dispose()', pair.dispose]);
  let problem: string | undefined;
  for (const [label, action] of steps) {
    let outcome: Awaited<ReturnType<typeof settleWithin>>;
    try {
      outcome = await settleWithin(action(), options.sendSettleMs);
    } catch (error) {
      outcome = { state: 'rejected', reason: error };
    }
    if (problem !== undefined) continue;
    if (outcome.state === 'pending')
      problem = `cleanup: ${label} did not settle within ${options.sendSettleMs} ms`;
    if (outcome.state === 'rejected') problem = `cleanup: ${label} failed: ${errorText(outcome.reason)}`;
  }
  return problem;
}

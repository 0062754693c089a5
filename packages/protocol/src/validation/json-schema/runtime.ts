import { appendPointer } from './json-pointer.js';
import type { JsonSchemaValidationError } from './types.js';

/**
 * What the in-place subschemas of one schema node evaluated, for `unevaluatedProperties` and
 * `unevaluatedItems` (2020-12 Core §11). Only allocated when the document uses those keywords.
 */
export class Annotations {
  props: Set<string> | undefined = undefined;
  allProps = false;
  /** Items `[0, prefixItems)` were evaluated (by `prefixItems`). */
  prefixItems = 0;
  allItems = false;
  /** Individual indices evaluated by `contains`. */
  itemIndices: Set<number> | undefined = undefined;

  addProp(key: string): void {
    if (this.props === undefined) this.props = new Set();
    this.props.add(key);
  }

  addItemIndex(index: number): void {
    if (this.itemIndices === undefined) this.itemIndices = new Set();
    this.itemIndices.add(index);
  }

  isPropEvaluated(key: string): boolean {
    return this.allProps || this.props?.has(key) === true;
  }

  isItemEvaluated(index: number): boolean {
    return this.allItems || index < this.prefixItems || this.itemIndices?.has(index) === true;
  }

  merge(other: Annotations): void {
    if (other.allProps) this.allProps = true;
    else if (other.props !== undefined && !this.allProps) for (const key of other.props) this.addProp(key);
    if (other.allItems) this.allItems = true;
    if (other.prefixItems > this.prefixItems) this.prefixItems = other.prefixItems;
    if (other.itemIndices !== undefined && !this.allItems) {
      for (const index of other.itemIndices) this.addItemIndex(index);
    }
  }
}

/** Per-call mutable state: the error sink, the current location, and the counters that bound work. */
export class ValidationState {
  readonly errors: JsonSchemaValidationError[] = [];
  /**
   * Reference tokens from the root to the value being validated. A stack rather than a string per
   * call, so the JSON Pointer is only built when an error is actually recorded.
   */
  readonly path: (string | number)[] = [];
  /**
   * > 0 while probing a subschema whose errors are discarded (anyOf/oneOf branches, not, if,
   * contains): nothing is recorded and evaluation stops at the first failure.
   */
  quiet = 0;
  depth = 0;
  readonly maxErrors: number;
  readonly maxDepth: number;

  constructor(maxErrors: number, maxDepth: number) {
    this.maxErrors = maxErrors;
    this.maxDepth = maxDepth;
  }

  /** The JSON Pointer of the current location, optionally extended by one more token. */
  pointer(extra?: string | number): string {
    let pointer = '';
    for (const token of this.path) pointer = appendPointer(pointer, token);
    return extra === undefined ? pointer : appendPointer(pointer, extra);
  }
}

/** Thrown through the validator stack when `maxDepth` is exceeded; `validate` turns it into an error. */
export class DepthLimitError extends Error {
  override readonly name: string = 'DepthLimitError';
  readonly path: string;

  constructor(path: string) {
    super('maximum validation depth exceeded');
    this.path = path;
  }
}

/**
 * A compiled schema node or keyword. Returns validity; records errors into `state` unless quiet.
 * `annotations` is a fresh object owned by the callee when the caller collects annotations for
 * `unevaluated*`, else `undefined`.
 */
export type NodeValidator = (
  value: unknown,
  state: ValidationState,
  annotations: Annotations | undefined,
) => boolean;

/**
 * Records an error at the current location (or at its child `token`); returns true when the
 * caller should stop evaluating (quiet, or the error cap is reached).
 */
export function report(
  state: ValidationState,
  keyword: string,
  message: string,
  token?: string | number,
): boolean {
  if (state.quiet > 0) return true;
  state.errors.push({ path: state.pointer(token), message, keyword });
  return state.errors.length >= state.maxErrors;
}

/** Records an error and evaluates to `false`, for leaf checks written as `ok || invalid(...)`. */
export function invalid(
  state: ValidationState,
  keyword: string,
  message: string,
  token?: string | number,
): false {
  report(state, keyword, message, token);
  return false;
}

export function shouldStop(state: ValidationState): boolean {
  return state.quiet > 0 || state.errors.length >= state.maxErrors;
}

/** Validates a member or item: `token` is pushed on the location stack for the call's duration. */
export function validateChild(
  validator: NodeValidator,
  value: unknown,
  token: string | number,
  state: ValidationState,
): boolean {
  state.path.push(token);
  const valid = validator(value, state, undefined);
  state.path.pop();
  return valid;
}

/** Evaluates a subschema without recording its errors. */
export function probe(
  validator: NodeValidator,
  value: unknown,
  state: ValidationState,
  annotations: Annotations | undefined,
): boolean {
  state.quiet++;
  const valid = validator(value, state, annotations);
  state.quiet--;
  return valid;
}

/** Runs an in-place applicator and merges its annotations into the caller's on success. */
export function applyInPlace(
  validator: NodeValidator,
  value: unknown,
  state: ValidationState,
  annotations: Annotations | undefined,
): boolean {
  if (annotations === undefined) return validator(value, state, undefined);
  const own = new Annotations();
  const valid = validator(value, state, own);
  if (valid) annotations.merge(own);
  return valid;
}

export const alwaysValid: NodeValidator = () => true;

/** Combines keyword validators of one schema node, evaluating all of them unless told to stop. */
export function allOfValidators(validators: readonly NodeValidator[]): NodeValidator {
  if (validators.length === 0) return alwaysValid;
  if (validators.length === 1) return validators[0]!;
  if (validators.length === 2) {
    const [first, second] = validators as [NodeValidator, NodeValidator];
    return (value, state, annotations) => {
      if (first(value, state, annotations)) return second(value, state, annotations);
      if (shouldStop(state)) return false;
      second(value, state, annotations);
      return false;
    };
  }
  const count = validators.length;
  return (value, state, annotations) => {
    let valid = true;
    for (let i = 0; i < count; i++) {
      if (!validators[i]!(value, state, annotations)) {
        valid = false;
        if (shouldStop(state)) return false;
      }
    }
    return valid;
  };
}

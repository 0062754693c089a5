/**
 * What a registry offers the handles it returns; `K` is how it finds the item again (a tool or
 * prompt name, which `update` may change, or a resource entry).
 */
export interface HandleTarget<K, U> {
  nameOf(key: K): string;
  isEnabled(key: K): boolean;
  setEnabled(key: K, enabled: boolean): void;
  /** Applies the changes; returns the key the item is found by from now on. */
  update(key: K, changes: U): K;
  remove(key: K): void;
}

/**
 * The handle `registerTool`, `registerPrompt` and `registerResource` return: one class for all three
 * (resources add `notifyUpdated`), so enabling, renaming and removing behave the same everywhere.
 */
export class RegistryHandle<K, U> {
  readonly #target: HandleTarget<K, U>;
  #key: K;

  constructor(target: HandleTarget<K, U>, key: K) {
    this.#target = target;
    this.#key = key;
  }

  protected get key(): K {
    return this.#key;
  }

  get name(): string {
    return this.#target.nameOf(this.#key);
  }

  get enabled(): boolean {
    return this.#target.isEnabled(this.#key);
  }

  enable(): void {
    this.#target.setEnabled(this.#key, true);
  }

  disable(): void {
    this.#target.setEnabled(this.#key, false);
  }

  update(changes: U): void {
    this.#key = this.#target.update(this.#key, changes);
  }

  remove(): void {
    this.#target.remove(this.#key);
  }
}

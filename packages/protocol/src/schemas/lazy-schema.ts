/**
 * Schemas built on first use. Building every everyday schema when `@x/protocol` is imported cost
 * ~1.2 MiB of heap and ~10 ms in every process, most of it for schemas a given program never touches
 * (a tools-only server never reads a sampling or elicitation schema). Each exported `…Schema` is a
 * facade that builds its schema (and the schemas it is made of) the first time anything reads it, and
 * from then on forwards every operation to it: `parse`, `shape`, `extend`, `instanceof z.ZodObject`,
 * composition inside other zod schemas all behave as on the schema itself.
 *
 * Inside `@x/protocol`, schemas compose from {@link realSchema} so that parsing a built schema never
 * goes through a facade.
 */

/** A fast check (see `fast-check.ts`): true only for values the schema accepts and returns unchanged. */
export type FastCheck = (value: unknown) => boolean;

/**
 * The facade's target: the builder, then what it built; and the schema's fast check, if it has one. A
 * deferred facade ({@link deferredSchema}) has `load` instead of `build`, and `loading` while it loads.
 */
interface Slot {
  build: (() => object) | undefined;
  value: object | undefined;
  check: FastCheck | undefined;
  load?: (() => Promise<object>) | undefined;
  loading?: Promise<object> | undefined;
}

/** Fast checks by schema object: built schemas, and any schema a caller registered one for. */
export const fastChecks = new WeakMap<object, FastCheck>();

function resolve(slot: Slot): object {
  let value = slot.value;
  if (value === undefined) {
    const build = slot.build;
    if (build === undefined) {
      if (slot.load !== undefined) {
        throw new Error('a deferred schema is loaded on first use: read it with schemaOrLoad() and await it');
      }
      throw new Error('schema referenced while it is being built');
    }
    slot.build = undefined;
    value = build();
    slot.value = value;
    if (slot.check !== undefined) fastChecks.set(value, slot.check);
  }
  return value;
}

/** Reported descriptors are configurable: the slot holds none of the schema's own properties. */
function configurable(descriptor: PropertyDescriptor | undefined): PropertyDescriptor | undefined {
  if (descriptor !== undefined) descriptor.configurable = true;
  return descriptor;
}

const handler: ProxyHandler<Slot> = {
  get: (slot, key) => Reflect.get(resolve(slot), key),
  set: (slot, key, value) => Reflect.set(resolve(slot), key, value),
  has: (slot, key) => Reflect.has(resolve(slot), key),
  ownKeys: (slot) => Reflect.ownKeys(resolve(slot)),
  getOwnPropertyDescriptor: (slot, key) => configurable(Reflect.getOwnPropertyDescriptor(resolve(slot), key)),
  defineProperty: (slot, key, descriptor) =>
    Reflect.defineProperty(resolve(slot), key, { ...descriptor, configurable: true }),
  deleteProperty: (slot, key) => Reflect.deleteProperty(resolve(slot), key),
  getPrototypeOf: (slot) => Reflect.getPrototypeOf(resolve(slot)),
  setPrototypeOf: (slot, prototype) => Reflect.setPrototypeOf(resolve(slot), prototype),
  // A facade cannot be frozen (its own keys are the schema's, not its slot's): refuse up front instead of
  // half-freezing the slot, which would break every later key listing.
  preventExtensions: () => false,
};

const slots = new WeakMap<object, Slot>();

/**
 * A schema that `build` makes the first time it is read. `build` runs once; it may read other lazy
 * schemas (through {@link realSchema}), not the one it builds. A `check` (fast check, see
 * `registerFastCheck` for its contract) answers for the schema without building it: a value it accepts
 * never needs the schema.
 *
 * @example
 * ```ts
 * const Echo = lazySchema(
 *   () => z.looseObject({ text: z.string() }),
 *   (v) => typeof v === 'object' && v !== null && typeof (v as { text?: unknown }).text === 'string',
 * );
 * fastAccepts(Echo, { text: 'hi' }); // true, and Echo is still unbuilt
 * Echo.parse({ text: 'hi' }); // builds it now
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazySchema<T extends object>(build: () => T, check?: FastCheck): T {
  const slot: Slot = { build, value: undefined, check };
  const facade = new Proxy(slot, handler);
  slots.set(facade, slot);
  if (check !== undefined) fastChecks.set(facade, check);
  return facade as unknown as T;
}

/**
 * A schema that lives in another module, loaded with `load` (a dynamic `import()`) the first time a
 * value fails `check`. For code that must not put zod in a browser's first download (the client): a
 * bundler splits what `load` imports into a chunk of its own, fetched only when a server sends
 * something the check refuses (malformed, or a shape the check cannot vouch for). `check` is an exact
 * zod-free check (`@x/protocol/internal`'s generated `is…` functions): true only for values the schema
 * accepts unchanged. Until loaded, the facade answers only {@link fastAccepts}-style checks and
 * {@link schemaOrLoad}; anything else throws.
 *
 * @example
 * ```ts
 * const Result = deferredSchema(
 *   () => import('./tools.js').then((module) => module.CallToolResultSchema),
 *   isCallToolResult,
 * );
 * const schema = await schemaOrLoad(Result); // the real schema, loaded once
 * ```
 */
/* @__NO_SIDE_EFFECTS__ */
export function deferredSchema<T extends object>(load: () => Promise<T>, check: FastCheck): T {
  const slot: Slot = { build: undefined, value: undefined, check, load };
  const facade = new Proxy(slot, handler);
  slots.set(facade, slot);
  fastChecks.set(facade, check);
  return facade as unknown as T;
}

/**
 * The schema behind a facade when it can be had now (a lazy one is built now), or a promise of it for
 * a deferred facade not loaded yet (loaded once, however many callers wait); any other value as is.
 *
 * @example
 * ```ts
 * const ready = schemaOrLoad(schema);
 * const real = isThenable(ready) ? await ready : ready;
 * ```
 */
export function schemaOrLoad<T>(schema: T): T | Promise<T> {
  const slot = typeof schema === 'object' && schema !== null ? slots.get(schema) : undefined;
  if (slot === undefined) return schema;
  if (slot.value !== undefined || slot.load === undefined) return resolve(slot) as T;
  slot.loading ??= loadSlot(slot, slot.load);
  return slot.loading as Promise<T>;
}

async function loadSlot(slot: Slot, load: () => Promise<object>): Promise<object> {
  try {
    const value = realSchema(await load());
    slot.value = value;
    slot.load = undefined;
    if (slot.check !== undefined) fastChecks.set(value, slot.check);
    return value;
  } catch (error) {
    // A failed load (a chunk the network lost) may be retried by the next value that needs it.
    slot.loading = undefined;
    throw error;
  }
}

/** The schema behind a {@link lazySchema} facade (built now if it was not yet); any other value as is. */
export function realSchema<T>(schema: T): T {
  const slot = typeof schema === 'object' && schema !== null ? slots.get(schema) : undefined;
  return slot === undefined ? schema : (resolve(slot) as T);
}

/**
 * The fast check of `schema`: registered for it, given to its facade, or registered for the schema a
 * facade has built. Never builds anything.
 */
export function fastCheckOf(schema: object): FastCheck | undefined {
  const check = fastChecks.get(schema);
  if (check !== undefined) return check;
  // A check registered for the schema a facade built (`registerFastCheck` on the facade).
  const built = slots.get(schema)?.value;
  return built === undefined ? undefined : fastChecks.get(built);
}

/** Whether `schema` is a {@link deferredSchema} facade whose schema has not been loaded (never loads it). */
export function isDeferredUnloaded(schema: unknown): boolean {
  const slot = typeof schema === 'object' && schema !== null ? slots.get(schema) : undefined;
  return slot?.load !== undefined;
}

/** Whether a {@link lazySchema} facade has built its schema (tests); non-facades count as built. */
export function isSchemaBuilt(schema: object): boolean {
  const slot = slots.get(schema);
  return slot === undefined || slot.value !== undefined;
}

/**
 * `crypto.randomUUID()` as one flat string, for ids a peer keeps as long as a session or task lives.
 *
 * Node assembles a UUID from 16 hex pairs and 4 dashes with `+`, and V8 keeps that result as a tree of
 * concatenations until something reads it character by character: about 490 bytes of heap per id
 * instead of about 70 (measured on Node 20, 100,000 ids). Reading one character makes V8 replace the tree
 * with a flat copy.
 *
 * @example
 * ```ts
 * const sessionId = randomUuid(); // '3b241101-e2bb-4255-8caf-4136c566a962', ~70 bytes retained
 * ```
 */
export function randomUuid(): string {
  const id = globalThis.crypto.randomUUID();
  id.charCodeAt(0);
  return id;
}

import type { ProtocolVersion } from '../versions.js';
import { build20241105, type Rev20241105 } from './revisions/2024-11-05.js';
import { build20250326, type Rev20250326 } from './revisions/2025-03-26.js';
import { build20250618, type Rev20250618 } from './revisions/2025-06-18.js';
import { build20251125, type Rev20251125 } from './revisions/2025-11-25.js';
import { build20260728, type Rev20260728 } from './revisions/2026-07-28.js';

/** The exact schemas of every revision, keyed by version, then by definition name. */
export interface RevisionSchemas {
  readonly '2024-11-05': Rev20241105;
  readonly '2025-03-26': Rev20250326;
  readonly '2025-06-18': Rev20250618;
  readonly '2025-11-25': Rev20251125;
  readonly '2026-07-28': Rev20260728;
}

const builders: { readonly [V in ProtocolVersion]: () => RevisionSchemas[V] } = {
  '2024-11-05': build20241105,
  '2025-03-26': build20250326,
  '2025-06-18': build20250618,
  '2025-11-25': build20251125,
  '2026-07-28': build20260728,
};

/**
 * The exact schemas of each revision, keyed by the definition names of its `schema.json`
 * (`CallToolRequest`, `Tool`, `ServerCapabilities`, …). Stricter than the everyday `…Schema`
 * exports: a 2024-11-05 `ContentBlock` rejects audio, a 2026-07-28 `Result` requires `resultType`.
 * Unknown keys are kept, as everywhere. Their output type is `unknown`: narrow with the everyday types.
 * A revision's schemas are built the first time it is read (they cost start-up time and memory that
 * programs which never read them should not pay).
 *
 * @example
 * ```ts
 * revisionSchemas['2025-06-18'].CallToolResult.parse(result);
 * ```
 */
export const revisionSchemas: RevisionSchemas = /* @__PURE__ */ (() =>
  // A pure IIFE (a getter per revision, nothing built): a bundle that never reads it drops the builders.
  Object.defineProperties(
    {},
    Object.fromEntries(
      Object.entries(builders).map(([version, build]) => [version, { get: build, enumerable: true }]),
    ),
  ) as RevisionSchemas)();

/** Definition names of one revision's `schema.json`. */
export type RevisionDefinitionName<V extends ProtocolVersion> = keyof RevisionSchemas[V] & string;

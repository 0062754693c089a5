import type { z } from 'zod';
import type { ProtocolVersion } from '../versions.js';
import { rev20241105 } from './revisions/2024-11-05.js';
import { rev20250326 } from './revisions/2025-03-26.js';
import { rev20250618 } from './revisions/2025-06-18.js';
import { rev20251125 } from './revisions/2025-11-25.js';
import { rev20260728 } from './revisions/2026-07-28.js';

/**
 * The exact schemas of each revision, keyed by the definition names of its `schema.json`
 * (`CallToolRequest`, `Tool`, `ServerCapabilities`, …). Stricter than the everyday `…Schema`
 * exports: a 2024-11-05 `ContentBlock` rejects audio, a 2026-07-28 `Result` requires `resultType`.
 * Unknown keys are kept, as everywhere. Their output type is `unknown`: narrow with the everyday types.
 *
 * @example
 * ```ts
 * revisionSchemas['2025-06-18'].CallToolResult.parse(result);
 * ```
 */
export const revisionSchemas = {
  '2024-11-05': rev20241105,
  '2025-03-26': rev20250326,
  '2025-06-18': rev20250618,
  '2025-11-25': rev20251125,
  '2026-07-28': rev20260728,
} as const satisfies Record<ProtocolVersion, Readonly<Record<string, z.ZodType>>>;

export type RevisionSchemas = typeof revisionSchemas;

/** Definition names of one revision's `schema.json`. */
export type RevisionDefinitionName<V extends ProtocolVersion> = keyof RevisionSchemas[V] & string;

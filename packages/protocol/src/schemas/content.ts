import { z } from 'zod';
import { AnnotationsSchema, IconSchema, MetaObjectSchema } from './common.js';

/**
 * Content blocks and resource contents. Supersets: AudioContent (2025-03-26+), ResourceLink and
 * `_meta` on blocks (2025-06-18+) and the sampling tool blocks (2025-11-25+) are all accepted; the
 * exact per-revision unions live in `revisions/`.
 */

/** Contents of a resource, common part. */
export const ResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  _meta: MetaObjectSchema.optional(),
});
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** Text contents of a resource. */
export const TextResourceContentsSchema = ResourceContentsSchema.extend({ text: z.string() });
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Binary contents of a resource, base64-encoded. */
export const BlobResourceContentsSchema = ResourceContentsSchema.extend({ blob: z.string() });
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** Text or blob contents, as returned by `resources/read` and embedded in content. */
export const ResourceContentsUnionSchema = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);

const blockBase = {
  annotations: AnnotationsSchema.optional(),
  _meta: MetaObjectSchema.optional(),
};

/** Text for or from an LLM. */
export const TextContentSchema = z.looseObject({ type: z.literal('text'), text: z.string(), ...blockBase });
export type TextContent = z.infer<typeof TextContentSchema>;

/** A base64-encoded image. */
export const ImageContentSchema = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  ...blockBase,
});
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Base64-encoded audio (2025-03-26+). */
export const AudioContentSchema = z.looseObject({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
  ...blockBase,
});
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** A link to a resource the client may read (2025-06-18+). */
export const ResourceLinkSchema = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  icons: z.array(IconSchema).optional(),
  ...blockBase,
});
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** A resource's contents embedded in a prompt or tool result. */
export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal('resource'),
  resource: ResourceContentsUnionSchema,
  ...blockBase,
});
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/**
 * Any content block of a prompt message or tool result.
 *
 * @example
 * ```ts
 * const block = ContentBlockSchema.parse({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });
 * if (block.type === 'text') console.log(block.text);
 * else if (block.type === 'image') console.log(`${block.mimeType}, ${block.data.length} base64 chars`);
 * ```
 */
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/** A tool call requested by the model during sampling (2025-11-25+). */
export const ToolUseContentSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  _meta: MetaObjectSchema.optional(),
});
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

/** The outcome of a tool call, sent back to the model during sampling (2025-11-25+). */
export const ToolResultContentSchema = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  /** An object up to 2025-11-25, any JSON value in 2026-07-28. */
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  _meta: MetaObjectSchema.optional(),
});
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/** Content of a sampling message. */
export const SamplingMessageContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

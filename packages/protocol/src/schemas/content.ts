import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isAudioContent,
  isBlobResourceContents,
  isContentBlock,
  isEmbeddedResource,
  isImageContent,
  isResourceContents,
  isResourceContentsUnion,
  isResourceLink,
  isSamplingMessageContentBlock,
  isTextContent,
  isTextResourceContents,
  isToolResultContent,
  isToolUseContent,
} from './generated/checks.js';
import { AnnotationsSchema, IconSchema, MetaObjectSchema } from './common.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * Content blocks and resource contents. Supersets: AudioContent (2025-03-26+), ResourceLink and
 * `_meta` on blocks (2025-06-18+) and the sampling tool blocks (2025-11-25+) are all accepted; the
 * exact per-revision unions live in `revisions/`.
 */

/** Contents of a resource, common part. */
export const ResourceContentsSchema: LooseObject<{
  uri: z.ZodString;
  mimeType: z.ZodOptional<z.ZodString>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      uri: z.string(),
      mimeType: z.string().optional(),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isResourceContents,
);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/** Text contents of a resource. */
export const TextResourceContentsSchema: Extended<typeof ResourceContentsSchema, { text: z.ZodString }> =
  lazySchema(() => realSchema(ResourceContentsSchema).extend({ text: z.string() }), isTextResourceContents);
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/** Binary contents of a resource, base64-encoded. */
export const BlobResourceContentsSchema: Extended<typeof ResourceContentsSchema, { blob: z.ZodString }> =
  lazySchema(() => realSchema(ResourceContentsSchema).extend({ blob: z.string() }), isBlobResourceContents);
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/** Text or blob contents, as returned by `resources/read` and embedded in content. */
export const ResourceContentsUnionSchema: z.ZodUnion<
  readonly [typeof TextResourceContentsSchema, typeof BlobResourceContentsSchema]
> = lazySchema(
  () => z.union([realSchema(TextResourceContentsSchema), realSchema(BlobResourceContentsSchema)]),
  isResourceContentsUnion,
);

const blockBase = () => ({
  annotations: realSchema(AnnotationsSchema).optional(),
  _meta: realSchema(MetaObjectSchema).optional(),
});

/** Text for or from an LLM. */
export const TextContentSchema: LooseObject<{
  type: z.ZodLiteral<'text'>;
  text: z.ZodString;
  annotations: z.ZodOptional<typeof AnnotationsSchema>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () => z.looseObject({ type: z.literal('text'), text: z.string(), ...blockBase() }),
  isTextContent,
);
export type TextContent = z.infer<typeof TextContentSchema>;

/** A base64-encoded image. */
export const ImageContentSchema: LooseObject<{
  type: z.ZodLiteral<'image'>;
  data: z.ZodString;
  mimeType: z.ZodString;
  annotations: z.ZodOptional<typeof AnnotationsSchema>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('image'),
      data: z.string(),
      mimeType: z.string(),
      ...blockBase(),
    }),
  isImageContent,
);
export type ImageContent = z.infer<typeof ImageContentSchema>;

/** Base64-encoded audio (2025-03-26+). */
export const AudioContentSchema: LooseObject<{
  type: z.ZodLiteral<'audio'>;
  data: z.ZodString;
  mimeType: z.ZodString;
  annotations: z.ZodOptional<typeof AnnotationsSchema>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('audio'),
      data: z.string(),
      mimeType: z.string(),
      ...blockBase(),
    }),
  isAudioContent,
);
export type AudioContent = z.infer<typeof AudioContentSchema>;

/** A link to a resource the client may read (2025-06-18+). */
export const ResourceLinkSchema: LooseObject<{
  type: z.ZodLiteral<'resource_link'>;
  uri: z.ZodString;
  name: z.ZodString;
  title: z.ZodOptional<z.ZodString>;
  description: z.ZodOptional<z.ZodString>;
  mimeType: z.ZodOptional<z.ZodString>;
  size: z.ZodOptional<z.ZodNumber>;
  icons: z.ZodOptional<z.ZodArray<typeof IconSchema>>;
  annotations: z.ZodOptional<typeof AnnotationsSchema>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('resource_link'),
      uri: z.string(),
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      size: z.number().optional(),
      icons: z.array(realSchema(IconSchema)).optional(),
      ...blockBase(),
    }),
  isResourceLink,
);
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/** A resource's contents embedded in a prompt or tool result. */
export const EmbeddedResourceSchema: LooseObject<{
  type: z.ZodLiteral<'resource'>;
  resource: typeof ResourceContentsUnionSchema;
  annotations: z.ZodOptional<typeof AnnotationsSchema>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('resource'),
      resource: realSchema(ResourceContentsUnionSchema),
      ...blockBase(),
    }),
  isEmbeddedResource,
);
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
export const ContentBlockSchema: z.ZodDiscriminatedUnion<
  [
    typeof TextContentSchema,
    typeof ImageContentSchema,
    typeof AudioContentSchema,
    typeof ResourceLinkSchema,
    typeof EmbeddedResourceSchema,
  ],
  'type'
> = lazySchema(
  () =>
    z.discriminatedUnion('type', [
      realSchema(TextContentSchema),
      realSchema(ImageContentSchema),
      realSchema(AudioContentSchema),
      realSchema(ResourceLinkSchema),
      realSchema(EmbeddedResourceSchema),
    ]),
  isContentBlock,
);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/** A tool call requested by the model during sampling (2025-11-25+). */
export const ToolUseContentSchema: LooseObject<{
  type: z.ZodLiteral<'tool_use'>;
  id: z.ZodString;
  name: z.ZodString;
  input: z.ZodRecord<z.ZodString, z.ZodUnknown>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('tool_use'),
      id: z.string(),
      name: z.string(),
      input: z.record(z.string(), z.unknown()),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isToolUseContent,
);
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

/** The outcome of a tool call, sent back to the model during sampling (2025-11-25+). */
export const ToolResultContentSchema: LooseObject<{
  type: z.ZodLiteral<'tool_result'>;
  toolUseId: z.ZodString;
  content: z.ZodArray<typeof ContentBlockSchema>;
  structuredContent: z.ZodOptional<z.ZodUnknown>;
  isError: z.ZodOptional<z.ZodBoolean>;
  _meta: z.ZodOptional<typeof MetaObjectSchema>;
}> = lazySchema(
  () =>
    z.looseObject({
      type: z.literal('tool_result'),
      toolUseId: z.string(),
      content: z.array(realSchema(ContentBlockSchema)),
      /** An object up to 2025-11-25, any JSON value in 2026-07-28. */
      structuredContent: z.unknown().optional(),
      isError: z.boolean().optional(),
      _meta: realSchema(MetaObjectSchema).optional(),
    }),
  isToolResultContent,
);
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/** Content of a sampling message. */
export const SamplingMessageContentBlockSchema: z.ZodDiscriminatedUnion<
  [
    typeof TextContentSchema,
    typeof ImageContentSchema,
    typeof AudioContentSchema,
    typeof ToolUseContentSchema,
    typeof ToolResultContentSchema,
  ],
  'type'
> = lazySchema(
  () =>
    z.discriminatedUnion('type', [
      realSchema(TextContentSchema),
      realSchema(ImageContentSchema),
      realSchema(AudioContentSchema),
      realSchema(ToolUseContentSchema),
      realSchema(ToolResultContentSchema),
    ]),
  isSamplingMessageContentBlock,
);
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

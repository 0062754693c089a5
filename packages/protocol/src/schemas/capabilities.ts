import { z } from 'zod';

/**
 * Capability objects of both sides, as supersets of every revision. Capability values are open
 * objects (`{}` means "supported"), so unknown sub-capabilities pass through untouched.
 */

const OpenObject = z.looseObject({});
const ListChanged = z.looseObject({ listChanged: z.boolean().optional() });

/** Extension settings keyed by extension id, e.g. `io.modelcontextprotocol/tasks` (2026-07-28). */
const ExtensionsSchema = z.record(z.string(), OpenObject);

/** What a client supports. */
export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), OpenObject).optional(),
  /** 2026-07-28 lists `roots: {}` without `listChanged` (the notification is gone). */
  roots: ListChanged.optional(),
  /** `context` and `tools` sub-capabilities since 2025-11-25. */
  sampling: z.looseObject({ context: OpenObject.optional(), tools: OpenObject.optional() }).optional(),
  /** 2025-06-18+; `form` and `url` modes since 2025-11-25. */
  elicitation: z.looseObject({ form: OpenObject.optional(), url: OpenObject.optional() }).optional(),
  /** Experimental tasks, 2025-11-25 only (an extension from 2026-07-28 on). */
  tasks: z
    .looseObject({
      list: OpenObject.optional(),
      cancel: OpenObject.optional(),
      requests: z
        .looseObject({
          sampling: z.looseObject({ createMessage: OpenObject.optional() }).optional(),
          elicitation: z.looseObject({ create: OpenObject.optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
  extensions: ExtensionsSchema.optional(),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/**
 * What a server supports.
 *
 * @example
 * ```ts
 * const caps = ServerCapabilitiesSchema.parse({
 *   tools: { listChanged: true },
 *   resources: { subscribe: true },
 * });
 * console.log(caps.resources?.subscribe); // true
 * console.log(ClientCapabilitiesSchema.safeParse({ sampling: 'yes' }).success); // false
 * ```
 */
export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), OpenObject).optional(),
  logging: OpenObject.optional(),
  /** 2025-03-26+. */
  completions: OpenObject.optional(),
  prompts: ListChanged.optional(),
  resources: z
    .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
    .optional(),
  tools: ListChanged.optional(),
  /** Experimental tasks, 2025-11-25 only. */
  tasks: z
    .looseObject({
      list: OpenObject.optional(),
      cancel: OpenObject.optional(),
      requests: z
        .looseObject({ tools: z.looseObject({ call: OpenObject.optional() }).optional() })
        .optional(),
    })
    .optional(),
  /** 2026-07-28. */
  extensions: ExtensionsSchema.optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

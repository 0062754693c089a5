import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import { isClientCapabilities, isServerCapabilities } from './generated/checks.js';

/**
 * Capability objects of both sides, as supersets of every revision. Capability values are open
 * objects (`{}` means "supported"), so unknown sub-capabilities pass through untouched.
 */

const OpenObject = lazySchema(() => z.looseObject({}));
const ListChanged = lazySchema(() => z.looseObject({ listChanged: z.boolean().optional() }));

/** Extension settings keyed by extension id, e.g. `io.modelcontextprotocol/tasks` (2026-07-28). */
const ExtensionsSchema = lazySchema(() => z.record(z.string(), realSchema(OpenObject)));

/** What a client supports. */
export const ClientCapabilitiesSchema = lazySchema(
  () =>
    z.looseObject({
      experimental: z.record(z.string(), realSchema(OpenObject)).optional(),
      /** 2026-07-28 lists `roots: {}` without `listChanged` (the notification is gone). */
      roots: realSchema(ListChanged).optional(),
      /** `context` and `tools` sub-capabilities since 2025-11-25. */
      sampling: z
        .looseObject({ context: realSchema(OpenObject).optional(), tools: realSchema(OpenObject).optional() })
        .optional(),
      /** 2025-06-18+; `form` and `url` modes since 2025-11-25. */
      elicitation: z
        .looseObject({ form: realSchema(OpenObject).optional(), url: realSchema(OpenObject).optional() })
        .optional(),
      /** Experimental tasks, 2025-11-25 only (an extension from 2026-07-28 on). */
      tasks: z
        .looseObject({
          list: realSchema(OpenObject).optional(),
          cancel: realSchema(OpenObject).optional(),
          requests: z
            .looseObject({
              sampling: z.looseObject({ createMessage: realSchema(OpenObject).optional() }).optional(),
              elicitation: z.looseObject({ create: realSchema(OpenObject).optional() }).optional(),
            })
            .optional(),
        })
        .optional(),
      extensions: realSchema(ExtensionsSchema).optional(),
    }),
  isClientCapabilities,
);
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
export const ServerCapabilitiesSchema = lazySchema(
  () =>
    z.looseObject({
      experimental: z.record(z.string(), realSchema(OpenObject)).optional(),
      logging: realSchema(OpenObject).optional(),
      /** 2025-03-26+. */
      completions: realSchema(OpenObject).optional(),
      prompts: realSchema(ListChanged).optional(),
      resources: z
        .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
        .optional(),
      tools: realSchema(ListChanged).optional(),
      /** Experimental tasks, 2025-11-25 only. */
      tasks: z
        .looseObject({
          list: realSchema(OpenObject).optional(),
          cancel: realSchema(OpenObject).optional(),
          requests: z
            .looseObject({ tools: z.looseObject({ call: realSchema(OpenObject).optional() }).optional() })
            .optional(),
        })
        .optional(),
      /** 2026-07-28. */
      extensions: realSchema(ExtensionsSchema).optional(),
    }),
  isServerCapabilities,
);
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

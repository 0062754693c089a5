/**
 * The 1.x `types.js` names x-mcp has no schema for, built here from x-mcp's schemas (zod 4): the JSON-RPC
 * envelopes, the per-side unions, the base request/notification shapes and a few helpers. x-mcp itself
 * checks envelopes with hand-written validators (no zod on its hot path); these exist for applications
 * that parse or narrow messages with the official names.
 */
import {
  AudioContentSchema,
  CallToolRequestSchema,
  CallToolResultSchema,
  CancelledNotificationSchema,
  CancelTaskRequestSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  GetTaskResultSchema,
  ImageContentSchema,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  InitializeResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  ListTasksRequestSchema,
  ListTasksResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  LoggingMessageNotificationSchema,
  PaginatedRequestParamsSchema,
  PingRequestSchema,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  RequestIdSchema,
  ResourceListChangedNotificationSchema,
  ResourceTemplateReferenceSchema,
  ResourceUpdatedNotificationSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  TaskStatusNotificationSchema,
  TextContentSchema,
  TitledMultiSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  ToolListChangedNotificationSchema,
  UnsubscribeRequestSchema,
  UntitledMultiSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
} from '@x/protocol';
import type {
  AudioContent,
  CallToolResult,
  CompleteResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateTaskResult,
  ElicitResult,
  EmptyResult,
  GetPromptResult,
  GetTaskResult,
  ImageContent,
  InitializeResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListTasksResult,
  ListToolsResult,
  Prompt,
  ReadResourceResult,
  Resource,
  TextContent,
  Tool,
} from '@x/protocol';
import type {
  ClientNotification,
  ClientRequest,
  Request,
  ServerNotification,
  ServerRequest,
} from './official-types.js';
import { z } from 'zod';

const JsonRpcVersion = z.literal('2.0');
const MetaSchema = z.looseObject({ progressToken: z.union([z.string(), z.number()]).optional() });

/**
 * A request of any method: `{ method, params? }` (params open, with an optional `_meta`).
 *
 * @example
 * ```ts
 * RequestSchema.parse({ method: 'tools/list' });
 * ```
 */
export const RequestSchema = z.object({
  method: z.string(),
  params: z.looseObject({ _meta: MetaSchema.optional() }).optional(),
});

/** A notification of any method. */
export const NotificationSchema = z.object({
  method: z.string(),
  params: z.looseObject({ _meta: z.looseObject({}).optional() }).optional(),
});

const OpenResultSchema = z.looseObject({ _meta: z.looseObject({}).optional() });

/** A JSON-RPC request: `jsonrpc: '2.0'`, an `id`, and nothing else besides `method` and `params`. */
export const JSONRPCRequestSchema = z.strictObject({
  jsonrpc: JsonRpcVersion,
  id: RequestIdSchema,
  ...RequestSchema.shape,
});

/** A JSON-RPC notification (no `id`). */
export const JSONRPCNotificationSchema = z.strictObject({
  jsonrpc: JsonRpcVersion,
  ...NotificationSchema.shape,
});

/** A JSON-RPC success response. */
export const JSONRPCResultResponseSchema = z.strictObject({
  jsonrpc: JsonRpcVersion,
  id: RequestIdSchema,
  result: OpenResultSchema,
});

/** A JSON-RPC error response (its `id` may be absent when the request could not be read). */
export const JSONRPCErrorResponseSchema = z.strictObject({
  jsonrpc: JsonRpcVersion,
  id: RequestIdSchema.optional(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
});

/** The 1.x name `JSONRPCErrorResponseSchema` had before 1.22. */
export const JSONRPCErrorSchema = JSONRPCErrorResponseSchema;

/** Either response. */
export const JSONRPCResponseSchema = z.union([JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema]);

/**
 * Any JSON-RPC message MCP sends.
 *
 * @example
 * ```ts
 * const message = JSONRPCMessageSchema.parse(JSON.parse(line));
 * ```
 */
export const JSONRPCMessageSchema = z.union([
  JSONRPCRequestSchema,
  JSONRPCNotificationSchema,
  JSONRPCResultResponseSchema,
  JSONRPCErrorResponseSchema,
]);

/** A progress update's fields. */
export const ProgressSchema = z.object({
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});

/** A request with an optional `cursor`. */
export const PaginatedRequestSchema: z.ZodType<PaginatedRequest> = RequestSchema.extend({
  params: PaginatedRequestParamsSchema.optional(),
});

/** The official name of the resource-template completion reference. */
export const ResourceReferenceSchema = ResourceTemplateReferenceSchema;

/** Content a sampling message may hold: text, image or audio. */
export const SamplingContentSchema: z.ZodType<SamplingContent> = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
]);
export type SamplingContent = TextContent | ImageContent | AudioContent;

/** A sampling result whose content may be an array (x-mcp's result schema takes both forms). */
export const CreateMessageResultWithToolsSchema: typeof CreateMessageResultSchema = CreateMessageResultSchema;

/** A single-choice enum of an elicitation form, titled or not. */
export const SingleSelectEnumSchemaSchema = z.union([
  UntitledSingleSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
]);

/** A single-choice enum of an elicitation form. */
export type SingleSelectEnumSchema = z.infer<typeof SingleSelectEnumSchemaSchema>;

/** A multiple-choice enum of an elicitation form, titled or not. */
export const MultiSelectEnumSchemaSchema = z.union([
  UntitledMultiSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
]);

/** A multiple-choice enum of an elicitation form. */
export type MultiSelectEnumSchema = z.infer<typeof MultiSelectEnumSchemaSchema>;

/** The `task` field of a task-augmented request: how long to keep the task, how often to poll. */
export const TaskCreationParamsSchema = z.looseObject({
  ttl: z.number().optional(),
  pollInterval: z.number().optional(),
});
export type TaskCreationParams = z.infer<typeof TaskCreationParamsSchema>;

const Present = z.looseObject({});

/** A client's `tasks` capability (2025-11-25). */
export const ClientTasksCapabilitySchema = z.looseObject({
  list: Present.optional(),
  cancel: Present.optional(),
  requests: z
    .looseObject({
      sampling: z.looseObject({ createMessage: Present.optional() }).optional(),
      elicitation: z.looseObject({ create: Present.optional() }).optional(),
    })
    .optional(),
});

/** A server's `tasks` capability (2025-11-25). */
export const ServerTasksCapabilitySchema = z.looseObject({
  list: Present.optional(),
  cancel: Present.optional(),
  requests: z.looseObject({ tools: z.looseObject({ call: Present.optional() }).optional() }).optional(),
});

/** The 1.x client's list-changed debounce when none is given: 300 ms, as 1.x. */
const LIST_CHANGED_DEBOUNCE_MS_1X = 300;

/** The 1.x client's list-changed options: refresh on its own (default) and debounce. */
export const ListChangedOptionsBaseSchema = z.object({
  autoRefresh: z.boolean().default(true),
  debounceMs: z.number().int().nonnegative().default(LIST_CHANGED_DEBOUNCE_MS_1X),
});

/**
 * An empty result as the unions of 1.x take it: nothing but `_meta` (x-mcp's `EmptyResultSchema` lets
 * unknown fields through, so a union with it would take any object as some result).
 */
const StrictEmptyResultSchema = z.strictObject({ _meta: z.looseObject({}).optional() });

/** Every request a client sends. */
export const ClientRequestSchema: z.ZodType<ClientRequest> = z.union([
  PingRequestSchema,
  InitializeRequestSchema,
  CompleteRequestSchema,
  SetLevelRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  GetTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  ListTasksRequestSchema,
  CancelTaskRequestSchema,
]) as z.ZodType<ClientRequest>;

/** Every notification a client sends. */
export const ClientNotificationSchema: z.ZodType<ClientNotification> = z.union([
  CancelledNotificationSchema,
  ProgressNotificationSchema,
  InitializedNotificationSchema,
  RootsListChangedNotificationSchema,
  TaskStatusNotificationSchema,
]) as z.ZodType<ClientNotification>;

/** Every result a client answers with. */
export const ClientResultSchema: z.ZodType<ClientResult> = z.union([
  StrictEmptyResultSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  CreateTaskResultSchema,
]) as z.ZodType<ClientResult>;
/** A result a client answers with. */
export type ClientResult =
  | EmptyResult
  | CreateMessageResult
  | ElicitResult
  | ListRootsResult
  | GetTaskResult
  | ListTasksResult
  | CreateTaskResult;

/** Every request a server sends. */
export const ServerRequestSchema: z.ZodType<ServerRequest> = z.union([
  PingRequestSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  GetTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  ListTasksRequestSchema,
  CancelTaskRequestSchema,
]) as z.ZodType<ServerRequest>;

/** Every notification a server sends. */
export const ServerNotificationSchema: z.ZodType<ServerNotification> = z.union([
  CancelledNotificationSchema,
  ProgressNotificationSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
  TaskStatusNotificationSchema,
  ElicitationCompleteNotificationSchema,
]) as z.ZodType<ServerNotification>;

/** Every result a server answers with. */
export const ServerResultSchema: z.ZodType<ServerResult> = z.union([
  StrictEmptyResultSchema,
  InitializeResultSchema,
  CompleteResultSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceResultSchema,
  CallToolResultSchema,
  ListToolsResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  CreateTaskResultSchema,
]) as z.ZodType<ServerResult>;
/** A result a server answers with. */
export type ServerResult =
  | EmptyResult
  | InitializeResult
  | CompleteResult
  | GetPromptResult
  | ListPromptsResult
  | ListResourcesResult
  | ListResourceTemplatesResult
  | ReadResourceResult
  | CallToolResult
  | ListToolsResult
  | GetTaskResult
  | ListTasksResult
  | CreateTaskResult;

/** A request with an optional `cursor`. */
export type PaginatedRequest = Request & {
  params?: (Request['params'] & { cursor?: string | undefined }) | undefined;
};
type CompleteRequest = z.infer<typeof CompleteRequestSchema>;

/** A `completion/complete` request about a prompt argument. */
export type CompleteRequestPrompt = CompleteRequest & { params: { ref: { type: 'ref/prompt' } } };
/** A `completion/complete` request about a resource template variable. */
export type CompleteRequestResourceTemplate = CompleteRequest & { params: { ref: { type: 'ref/resource' } } };

/**
 * Narrows a completion request to one about a prompt; throws `TypeError` for any other reference.
 *
 * @example
 * ```ts
 * assertCompleteRequestPrompt(request);
 * console.log(request.params.ref.name);
 * ```
 */
export function assertCompleteRequestPrompt(
  request: CompleteRequest,
): asserts request is CompleteRequestPrompt {
  if (request.params.ref.type !== 'ref/prompt') {
    throw new TypeError(
      `expected a completion request about a prompt (ref/prompt), got ${request.params.ref.type}`,
    );
  }
}

/** Narrows a completion request to one about a resource template; throws `TypeError` otherwise. */
export function assertCompleteRequestResourceTemplate(
  request: CompleteRequest,
): asserts request is CompleteRequestResourceTemplate {
  if (request.params.ref.type !== 'ref/resource') {
    throw new TypeError(
      `expected a completion request about a resource template (ref/resource), got ${request.params.ref.type}`,
    );
  }
}

const TaskAugmentedRequestParamsSchema = z.looseObject({
  task: z.object({ ttl: z.number().optional() }).optional(),
  _meta: z.looseObject({}).optional(),
});

/**
 * Whether a value has the shape of task-augmentable request params, as 1.x checks it: an object whose
 * `task`, when present, is `{ ttl? }` (so params without `task` pass too) and whose `_meta` is an object.
 *
 * @example
 * ```ts
 * if (isTaskAugmentedRequestParams(request.params) && request.params.task) console.log(request.params.task.ttl);
 * ```
 */
export function isTaskAugmentedRequestParams(
  value: unknown,
): value is { task?: { ttl?: number | undefined } | undefined; [key: string]: unknown } {
  return TaskAugmentedRequestParamsSchema.safeParse(value).success;
}

/** `sampling/createMessage` params without the tool fields. */
export type CreateMessageRequestParamsBase = Omit<CreateMessageRequestParams, 'tools' | 'toolChoice'>;

/** What the 1.x client's list-changed callback receives. */
export type ListChangedCallback<T> = (error: Error | null, items: T[] | null) => void;
/** 1.x client list-changed options for one list. */
export type ListChangedOptions<T> = Partial<z.input<typeof ListChangedOptionsBaseSchema>> & {
  onChanged: ListChangedCallback<T>;
};
/** 1.x client list-changed options for every list. */
export interface ListChangedHandlers {
  tools?: ListChangedOptions<Tool> | undefined;
  prompts?: ListChangedOptions<Prompt> | undefined;
  resources?: ListChangedOptions<Resource> | undefined;
}

/**
 * Barrel of the MCP message schemas: everyday superset schemas and types (`<DefName>Schema`,
 * `<DefName>`), the method maps, per-revision method sets and exact per-revision schemas.
 */
export { registerFastCheck, fastAccepts } from './fast-check.js';
export { lazySchema, realSchema } from './lazy-schema.js';
export {
  MetaKey,
  ResultType,
  LOGGING_LEVELS,
  CACHE_SCOPES,
  TASK_STATUSES,
  MCP_META_PREFIX,
} from './meta-keys.js';
export type { ResultTypeValue } from './meta-keys.js';
export {
  RequestIdSchema,
  ProgressTokenSchema,
  CursorSchema,
  RoleSchema,
  LoggingLevelSchema,
  JSONValueSchema,
  JSONObjectSchema,
  MetaObjectSchema,
  IconSchema,
  IconsSchema,
  BaseMetadataSchema,
  ImplementationSchema,
  AnnotationsSchema,
  CacheScopeSchema,
  ResultTypeSchema,
  ResultMetaObjectSchema,
  NotificationMetaObjectSchema,
  ResultSchema,
  EmptyResultSchema,
  CacheableResultSchema,
  NotificationParamsSchema,
  PaginatedResultSchema,
} from './common.js';
export type {
  Cursor,
  Role,
  LoggingLevel,
  JSONValue,
  JSONObject,
  Icon,
  Icons,
  BaseMetadata,
  Implementation,
  Annotations,
  CacheScope,
  ResultMetaObject,
  NotificationMetaObject,
  Result,
  EmptyResult,
  CacheableResult,
  NotificationParams,
  PaginatedResult,
} from './common.js';
export { ClientCapabilitiesSchema, ServerCapabilitiesSchema } from './capabilities.js';
export type { ClientCapabilities, ServerCapabilities } from './capabilities.js';
export {
  RequestMetaObjectSchema,
  RequestParamsSchema,
  PaginatedRequestParamsSchema,
  ResourceRequestParamsSchema,
} from './request-params.js';
export type {
  RequestMetaObject,
  RequestParams,
  PaginatedRequestParams,
  ResourceRequestParams,
} from './request-params.js';
export {
  ResourceContentsSchema,
  TextResourceContentsSchema,
  BlobResourceContentsSchema,
  ResourceContentsUnionSchema,
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
  ContentBlockSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
  SamplingMessageContentBlockSchema,
} from './content.js';
export type {
  ResourceContents,
  TextResourceContents,
  BlobResourceContents,
  TextContent,
  ImageContent,
  AudioContent,
  ResourceLink,
  EmbeddedResource,
  ContentBlock,
  ToolUseContent,
  ToolResultContent,
  SamplingMessageContentBlock,
} from './content.js';
export {
  ToolAnnotationsSchema,
  ToolExecutionSchema,
  ToolInputSchemaSchema,
  ToolOutputSchemaSchema,
  ToolSchema,
} from './tool-definition.js';
export type { ToolAnnotations, ToolExecution, Tool } from './tool-definition.js';
export {
  ListToolsRequestSchema,
  ListToolsResultSchema,
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
} from './tools.js';
export type {
  ListToolsRequest,
  ListToolsResult,
  CallToolRequestParams,
  CallToolRequest,
  CallToolResult,
  ToolListChangedNotification,
} from './tools.js';
export {
  ResourceSchema,
  ResourceTemplateSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  SubscribeRequestParamsSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestParamsSchema,
  UnsubscribeRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationParamsSchema,
  ResourceUpdatedNotificationSchema,
} from './resources.js';
export type {
  Resource,
  ResourceTemplate,
  ListResourcesRequest,
  ListResourcesResult,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceRequest,
  ReadResourceResult,
  SubscribeRequestParams,
  SubscribeRequest,
  UnsubscribeRequestParams,
  UnsubscribeRequest,
  ResourceListChangedNotification,
  ResourceUpdatedNotificationParams,
  ResourceUpdatedNotification,
} from './resources.js';
export {
  PromptArgumentSchema,
  PromptSchema,
  PromptMessageSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  GetPromptRequestParamsSchema,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  PromptListChangedNotificationSchema,
} from './prompts.js';
export type {
  PromptArgument,
  Prompt,
  PromptMessage,
  ListPromptsRequest,
  ListPromptsResult,
  GetPromptRequestParams,
  GetPromptRequest,
  GetPromptResult,
  PromptListChangedNotification,
} from './prompts.js';
export {
  PromptReferenceSchema,
  ResourceTemplateReferenceSchema,
  CompleteRequestParamsSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
} from './completion.js';
export type {
  PromptReference,
  ResourceTemplateReference,
  CompleteRequestParams,
  CompleteRequest,
  CompleteResult,
} from './completion.js';
export {
  SetLevelRequestParamsSchema,
  SetLevelRequestSchema,
  LoggingMessageNotificationParamsSchema,
  LoggingMessageNotificationSchema,
} from './logging.js';
export type {
  SetLevelRequestParams,
  SetLevelRequest,
  LoggingMessageNotificationParams,
  LoggingMessageNotification,
} from './logging.js';
export {
  CancelledNotificationParamsSchema,
  CancelledNotificationSchema,
  ProgressNotificationParamsSchema,
  ProgressNotificationSchema,
} from './notifications.js';
export type {
  CancelledNotificationParams,
  CancelledNotification,
  ProgressNotificationParams,
  ProgressNotification,
} from './notifications.js';
export {
  InitializeRequestParamsSchema,
  InitializeRequestSchema,
  InitializeResultSchema,
  InitializedNotificationSchema,
  PingRequestSchema,
  DiscoverRequestSchema,
  DiscoverResultSchema,
} from './lifecycle.js';
export type {
  InitializeRequestParams,
  InitializeRequest,
  InitializeResult,
  InitializedNotification,
  PingRequest,
  DiscoverRequest,
  DiscoverResult,
} from './lifecycle.js';
export {
  SubscriptionFilterSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenRequestSchema,
  SubscriptionsListenResultMetaObjectSchema,
  SubscriptionsListenResultSchema,
  SubscriptionsAcknowledgedNotificationParamsSchema,
  SubscriptionsAcknowledgedNotificationSchema,
} from './subscriptions.js';
export type {
  SubscriptionFilter,
  SubscriptionsListenRequestParams,
  SubscriptionsListenRequest,
  SubscriptionsListenResultMetaObject,
  SubscriptionsListenResult,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsAcknowledgedNotification,
} from './subscriptions.js';
export {
  InputRequestSchema,
  InputRequestsSchema,
  InputResponseSchema,
  InputResponsesSchema,
  InputRequiredResultSchema,
  InputResponseRequestParamsSchema,
  orInputRequired,
} from './input-required.js';
export type {
  InputRequest,
  InputRequests,
  InputResponse,
  InputResponses,
  InputRequiredResult,
  InputResponseRequestParams,
} from './input-required.js';
export {
  ModelHintSchema,
  ModelPreferencesSchema,
  ToolChoiceSchema,
  SamplingMessageSchema,
  CreateMessageRequestParamsSchema,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
} from './sampling.js';
export type {
  ModelHint,
  ModelPreferences,
  ToolChoice,
  SamplingMessage,
  CreateMessageRequestParams,
  CreateMessageRequest,
  CreateMessageResult,
} from './sampling.js';
export {
  StringSchemaSchema,
  NumberSchemaSchema,
  BooleanSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  EnumSchemaSchema,
  PrimitiveSchemaDefinitionSchema,
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
  ElicitRequestParamsSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ElicitationCompleteNotificationParamsSchema,
  ElicitationCompleteNotificationSchema,
} from './elicitation.js';
export type {
  StringSchema,
  NumberSchema,
  BooleanSchema,
  UntitledSingleSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema,
  LegacyTitledEnumSchema,
  EnumSchema,
  PrimitiveSchemaDefinition,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitRequestParams,
  ElicitRequest,
  ElicitResult,
  ElicitationCompleteNotificationParams,
  ElicitationCompleteNotification,
} from './elicitation.js';
export {
  RootSchema,
  ListRootsRequestParamsSchema,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  RootsListChangedNotificationSchema,
} from './roots.js';
export type {
  Root,
  ListRootsRequestParams,
  ListRootsRequest,
  ListRootsResult,
  RootsListChangedNotification,
} from './roots.js';
export {
  TaskStatusSchema,
  TaskMetadataSchema,
  RelatedTaskMetadataSchema,
  TaskAugmentedRequestParamsSchema,
  TaskSchema,
  CreateTaskResultSchema,
  TaskIdParamsSchema,
  GetTaskRequestSchema,
  GetTaskResultSchema,
  GetTaskPayloadRequestSchema,
  GetTaskPayloadResultSchema,
  CancelTaskRequestSchema,
  CancelTaskResultSchema,
  ListTasksRequestSchema,
  ListTasksResultSchema,
  TaskStatusNotificationParamsSchema,
  TaskStatusNotificationSchema,
} from './tasks.js';
export type {
  TaskStatus,
  TaskMetadata,
  RelatedTaskMetadata,
  TaskAugmentedRequestParams,
  Task,
  CreateTaskResult,
  TaskIdParams,
  GetTaskRequest,
  GetTaskResult,
  GetTaskPayloadRequest,
  GetTaskPayloadResult,
  CancelTaskRequest,
  CancelTaskResult,
  ListTasksRequest,
  ListTasksResult,
  TaskStatusNotificationParams,
  TaskStatusNotification,
} from './tasks.js';
export {
  ErrorSchema,
  ParseErrorSchema,
  InvalidRequestErrorSchema,
  MethodNotFoundErrorSchema,
  InvalidParamsErrorSchema,
  InternalErrorSchema,
  HeaderMismatchErrorSchema,
  MissingRequiredClientCapabilityErrorSchema,
  UnsupportedProtocolVersionErrorSchema,
  URLElicitationRequiredErrorSchema,
} from './error-schemas.js';
export type {
  ErrorObject,
  HeaderMismatchError,
  MissingRequiredClientCapabilityError,
  UnsupportedProtocolVersionError,
  URLElicitationRequiredError,
} from './error-schemas.js';
export {
  clientRequestSchemas,
  serverRequestSchemas,
  clientNotificationSchemas,
  serverNotificationSchemas,
} from './methods.js';
export type {
  MethodSchemaEntry,
  RequestMap,
  NotificationMap,
  ClientRequestMap,
  ServerRequestMap,
  ClientNotificationMap,
  ServerNotificationMap,
  ClientRequestMethod,
  ServerRequestMethod,
  ClientNotificationMethod,
  ServerNotificationMethod,
} from './methods.js';
export { revisionMethods, methodsOf } from './method-sets.js';
export type { RevisionMethods, RevisionMethodSets } from './method-sets.js';
export { revisionSchemas } from './revision-schemas.js';
export type { RevisionSchemas, RevisionDefinitionName } from './revision-schemas.js';

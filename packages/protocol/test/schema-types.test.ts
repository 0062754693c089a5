import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  Annotations,
  CallToolRequestParams,
  ClientCapabilities,
  ContentBlock,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  Implementation,
  InputRequiredResult,
  ListRootsRequest,
  ListRootsResult,
  LoggingLevel,
  ReadResourceResult,
  RequestMetaObject,
  SamplingMessageContentBlock,
  TaskMetadata,
  TaskStatus,
  TaskStatusNotificationParams,
  TextContent,
  TextResourceContents,
  BlobResourceContents,
  URLElicitationRequiredError,
} from '../src/schemas/index.js';
import type {
  CallToolRequestSchema,
  InputResponsesSchema,
  SubscriptionsListenResultSchema,
} from '../src/schemas/index.js';
import type { MetaKey } from '../src/schemas/meta-keys.js';

/**
 * The composite schemas carry hand-written type annotations (`src/schemas/schema-types.ts`) so their
 * `.d.ts` names member schemas instead of inlining them. These checks, run by `tsc` (the typecheck
 * task), hold a few representative composites to hand-written types: an annotation that drifted
 * from what zod infers shows up here.
 */

describe('annotated composite schemas', () => {
  it('request params extend the shared `_meta`', () => {
    expectTypeOf<RequestMetaObject>().toEqualTypeOf<{
      [key: string]: unknown;
      progressToken?: string | number | undefined;
      [MetaKey.ProtocolVersion]?: string | undefined;
      [MetaKey.ClientCapabilities]?: ClientCapabilities | undefined;
      [MetaKey.ClientInfo]?: Implementation | undefined;
      [MetaKey.LogLevel]?: LoggingLevel | undefined;
    }>();
    expectTypeOf<CallToolRequestParams>().toEqualTypeOf<{
      [key: string]: unknown;
      _meta?: RequestMetaObject | undefined;
      name: string;
      arguments?: Record<string, unknown> | undefined;
      task?: TaskMetadata | undefined;
      inputResponses?: Record<string, CreateMessageResult | ListRootsResult | ElicitResult> | undefined;
      requestState?: string | undefined;
    }>();
    expectTypeOf<z.input<typeof CallToolRequestSchema>['params']>().toEqualTypeOf<CallToolRequestParams>();
    expectTypeOf<z.output<typeof InputResponsesSchema>>().toEqualTypeOf<
      Record<string, CreateMessageResult | ListRootsResult | ElicitResult>
    >();
  });

  it('unions and records name their members', () => {
    expectTypeOf<InputRequiredResult['inputRequests']>().toEqualTypeOf<
      Record<string, CreateMessageRequest | ListRootsRequest | ElicitRequest> | undefined
    >();
    expectTypeOf<ElicitRequestParams>().toEqualTypeOf<ElicitRequestURLParams | ElicitRequestFormParams>();
    expectTypeOf<ElicitRequestURLParams['mode']>().toEqualTypeOf<'url'>();
    expectTypeOf<ElicitRequestFormParams['mode']>().toEqualTypeOf<'form' | undefined>();
    expectTypeOf<ContentBlock['type']>().toEqualTypeOf<
      'text' | 'image' | 'audio' | 'resource_link' | 'resource'
    >();
    expectTypeOf<SamplingMessageContentBlock['type']>().toEqualTypeOf<
      'text' | 'image' | 'audio' | 'tool_use' | 'tool_result'
    >();
    expectTypeOf<ReadResourceResult['contents'][number]>().toEqualTypeOf<
      TextResourceContents | BlobResourceContents
    >();
  });

  it('object members keep their exact shape', () => {
    expectTypeOf<TextContent>().toEqualTypeOf<{
      [key: string]: unknown;
      type: 'text';
      text: string;
      annotations?: Annotations | undefined;
      _meta?: { [key: string]: unknown } | undefined;
    }>();
    expectTypeOf<TaskStatusNotificationParams>().toEqualTypeOf<{
      [key: string]: unknown;
      _meta?: { [key: string]: unknown; [MetaKey.SubscriptionId]?: string | number | undefined } | undefined;
      taskId: string;
      status: TaskStatus;
      statusMessage?: string | undefined;
      createdAt: string;
      lastUpdatedAt: string;
      ttl: number | null;
      pollInterval?: number | undefined;
    }>();
    expectTypeOf<
      z.output<typeof SubscriptionsListenResultSchema>['_meta'][typeof MetaKey.SubscriptionId]
    >().toEqualTypeOf<string | number>();
    expectTypeOf<URLElicitationRequiredError['error']>().toEqualTypeOf<{
      [key: string]: unknown;
      code: -32042;
      message: string;
      data: { [key: string]: unknown; elicitations: ElicitRequestURLParams[] };
    }>();
  });
});

import { status as Status } from '@grpc/grpc-js';
import { ErrorCode } from '@x/protocol/core';
import { fromStruct, type ProtoStruct, toStruct } from './protobuf-struct.js';

type Json = Record<string, unknown>;

/** gRPC status of a JSON-RPC error code, as the published Python implementation maps it. */
export function statusOfErrorCode(code: number): number {
  switch (code) {
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
      return Status.INVALID_ARGUMENT;
    case ErrorCode.MethodNotFound:
      return Status.UNIMPLEMENTED;
    case ErrorCode.RequestTimeout:
      return Status.DEADLINE_EXCEEDED;
    case ErrorCode.InternalError:
      return Status.INTERNAL;
    default:
      return Status.UNKNOWN;
  }
}

const ROLES: Record<string, string> = { user: 'ROLE_USER', assistant: 'ROLE_ASSISTANT' };

function annotationsOf(value: unknown): Json | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const annotations = value as { audience?: string[]; priority?: number };
  return {
    audience: (annotations.audience ?? []).map((role) => ROLES[role] ?? 'ROLE_UNKNOWN'),
    ...(annotations.priority === undefined ? {} : { priority: annotations.priority }),
  };
}

/** An MCP `Tool` as `model_context_protocol.Tool`. */
export function toolOf(tool: Json): Json {
  const annotations = tool['annotations'] as Json | undefined;
  return {
    name: tool['name'],
    title: tool['title'] ?? '',
    description: tool['description'] ?? '',
    input_schema: toStruct((tool['inputSchema'] as Json | undefined) ?? { type: 'object' }),
    ...(tool['outputSchema'] === undefined ? {} : { output_schema: toStruct(tool['outputSchema'] as Json) }),
    ...(annotations === undefined
      ? {}
      : {
          annotations: {
            title: annotations['title'] ?? '',
            read_only_hint: annotations['readOnlyHint'] === true,
            destructive_hint: annotations['destructiveHint'] === true,
            idempotent_hint: annotations['idempotentHint'] === true,
            open_world_hint: annotations['openWorldHint'] === true,
          },
        }),
  };
}

/** MCP `ResourceContents` as `model_context_protocol.ResourceContents`. */
export function resourceContentsOf(contents: Json): Json {
  return {
    uri: contents['uri'],
    mime_type: contents['mimeType'] ?? '',
    ...(typeof contents['text'] === 'string' ? { text: contents['text'] } : {}),
    ...(typeof contents['blob'] === 'string' ? { blob: Buffer.from(contents['blob'], 'base64') } : {}),
  };
}

/** An MCP `Resource` (or resource link) as `model_context_protocol.Resource`. */
export function resourceOf(resource: Json): Json {
  return {
    uri: resource['uri'],
    name: resource['name'] ?? '',
    title: resource['title'] ?? '',
    description: resource['description'] ?? '',
    mime_type: resource['mimeType'] ?? '',
    ...(resource['annotations'] === undefined ? {} : { annotations: annotationsOf(resource['annotations']) }),
    ...(typeof resource['size'] === 'number' ? { size: resource['size'] } : {}),
  };
}

/** One MCP content block as the binding's content oneof members (text, image, audio, …). */
export function contentOf(block: Json): Json {
  const annotations =
    block['annotations'] === undefined ? {} : { annotations: annotationsOf(block['annotations']) };
  switch (block['type']) {
    case 'text':
      return { text: { text: block['text'], ...annotations } };
    case 'image':
    case 'audio':
      return {
        [block['type'] as string]: {
          data: Buffer.from(String(block['data']), 'base64'),
          mime_type: block['mimeType'] ?? '',
          ...annotations,
        },
      };
    case 'resource':
      return {
        embedded_resource: { contents: resourceContentsOf(block['resource'] as Json), ...annotations },
      };
    case 'resource_link':
      return { resource_link: resourceOf(block) };
    default:
      // A block the binding has no field for travels as text, so nothing is silently lost.
      return { text: { text: JSON.stringify(block) } };
  }
}

/** An MCP `CallToolResult` as `model_context_protocol.CallToolResponse` (without `common`). */
export function callToolResponseOf(result: Json): Json {
  const structured = result['structuredContent'] as Json | undefined;
  return {
    content: ((result['content'] as Json[] | undefined) ?? []).map(contentOf),
    ...(structured === undefined ? {} : { structured_content: toStruct(structured) }),
    is_error: result['isError'] === true,
  };
}

/** An MCP `Prompt` as `model_context_protocol.Prompt`. */
export function promptOf(prompt: Json): Json {
  return {
    name: prompt['name'],
    title: prompt['title'] ?? '',
    description: prompt['description'] ?? '',
    arguments: ((prompt['arguments'] as Json[] | undefined) ?? []).map((argument) => ({
      name: argument['name'],
      title: argument['title'] ?? '',
      description: argument['description'] ?? '',
      required: argument['required'] === true,
    })),
  };
}

/** An MCP `PromptMessage` as `model_context_protocol.PromptMessage`. */
export function promptMessageOf(message: Json): Json {
  const content = contentOf(message['content'] as Json);
  return { role: ROLES[String(message['role'])] ?? 'ROLE_UNKNOWN', ...content };
}

/** The `arguments` Struct of a `CallToolRequest.Request`. */
export function argumentsOf(struct: ProtoStruct | null | undefined): Json {
  return fromStruct(struct) ?? {};
}

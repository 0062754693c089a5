// Server→client requests of the native binding: an MCP 2026-07-28 `input_required` round trip
// (`inputRequests` / `inputResponses`, spec basic/patterns/mrtr) as the published
// `ResponseFields.dependent_requests` / `RequestFields.dependent_responses` maps, both directions.
import { fromStruct, type ProtoStruct, toStruct } from './protobuf-struct.js';

type Json = Record<string, unknown>;

/** One entry of MCP `inputRequests`: the request the server would have sent the client. */
export interface InputRequest {
  method: string;
  params?: Json | undefined;
}

const ROLE_OF: Readonly<Record<string, string>> = { user: 'ROLE_USER', assistant: 'ROLE_ASSISTANT' };
const ROLE_NAME: Readonly<Record<string, string>> = { ROLE_USER: 'user', ROLE_ASSISTANT: 'assistant' };
const ELICIT_TYPE: Readonly<Record<string, string>> = {
  accept: 'TYPE_ACCEPT',
  decline: 'TYPE_DECLINE',
  cancel: 'TYPE_CANCEL',
};
const ELICIT_ACTION: Readonly<Record<string, string>> = {
  TYPE_ACCEPT: 'accept',
  TYPE_DECLINE: 'decline',
  TYPE_CANCEL: 'cancel',
};
const STRING_FORMATS: Readonly<Record<string, string>> = {
  email: 'FORMAT_EMAIL',
  uri: 'FORMAT_URI',
  date: 'FORMAT_DATE',
  'date-time': 'FORMAT_DATE_TIME',
};

/** Thrown for an input request the binding has no field for; the RPC fails with `UNIMPLEMENTED`. */
export class UnmappableInputError extends Error {
  override readonly name = 'UnmappableInputError';
}

// ---- server side: inputRequests → dependent_requests, dependent_responses → inputResponses ----

/** An MCP input request as a `ServerInitiatedRequest`. */
export function dependentRequestOf(request: InputRequest): Json {
  const params = request.params ?? {};
  switch (request.method) {
    case 'sampling/createMessage':
      return { sampling_create_message: samplingRequestOf(params) };
    case 'elicitation/create':
      return { elicit_request: elicitRequestOf(params) };
    case 'roots/list':
      return { list_roots_request: {} };
    default:
      throw new UnmappableInputError(
        `the native binding cannot carry ${request.method} as a dependent request`,
      );
  }
}

function samplingRequestOf(params: Json): Json {
  const preferences = params['modelPreferences'] as Json | undefined;
  return {
    messages: ((params['messages'] as Json[] | undefined) ?? []).map(samplingMessageOf),
    ...(preferences === undefined
      ? {}
      : {
          model_preferences: {
            hints: ((preferences['hints'] as Json[] | undefined) ?? []).map((hint) => ({
              name: hint['name'] ?? '',
            })),
            intelligence_priority: preferences['intelligencePriority'] ?? 0,
            speed_priority: preferences['speedPriority'] ?? 0,
            cost_priority: preferences['costPriority'] ?? 0,
          },
        }),
    system_prompt: params['systemPrompt'] ?? '',
    include_context:
      params['includeContext'] === 'thisServer'
        ? 'THIS_SERVER'
        : params['includeContext'] === 'allServers'
          ? 'ALL_SERVERS'
          : 'NONE',
    temperature: params['temperature'] ?? 0,
    max_tokens: params['maxTokens'] ?? 0,
    stop_sequence: params['stopSequences'] ?? [],
  };
}

function samplingMessageOf(message: Json): Json {
  const content = (message['content'] ?? {}) as Json;
  const role = ROLE_OF[String(message['role'])] ?? 'ROLE_UNKNOWN';
  if (content['type'] === 'image' || content['type'] === 'audio') {
    return {
      role,
      [content['type'] as string]: {
        data: Buffer.from(String(content['data']), 'base64'),
        mime_type: content['mimeType'] ?? '',
      },
    };
  }
  return { role, text: { text: String(content['text'] ?? '') } };
}

function elicitRequestOf(params: Json): Json {
  if (params['mode'] === 'url') throw new UnmappableInputError('the native binding has no URL elicitation');
  const schema = (params['requestedSchema'] ?? {}) as Json;
  const properties = (schema['properties'] ?? {}) as Record<string, Json>;
  const requested: Json = {};
  for (const [name, property] of Object.entries(properties)) requested[name] = primitiveOf(property);
  return {
    message: params['message'] ?? '',
    requested_schema: requested,
    required_fields: schema['required'] ?? [],
  };
}

function primitiveOf(property: Json): Json {
  const common = { title: property['title'] ?? '', description: property['description'] ?? '' };
  const choices = property['enum'] ?? (property['oneOf'] as Json[] | undefined)?.map((item) => item['const']);
  if (Array.isArray(choices)) {
    return {
      enum_schema: { ...common, enum_list: choices.map(String), enum_names: property['enumNames'] ?? [] },
    };
  }
  switch (property['type']) {
    case 'boolean':
      return { boolean_schema: { ...common, default: property['default'] === true } };
    case 'number':
    case 'integer':
      return {
        number_schema: { ...common, minimum: property['minimum'] ?? 0, maximum: property['maximum'] ?? 0 },
      };
    default:
      return {
        string_schema: {
          ...common,
          min_length: property['minLength'] ?? 0,
          max_length: property['maxLength'] ?? 0,
          format: STRING_FORMATS[String(property['format'])] ?? 'FORMAT_UNKNOWN',
        },
      };
  }
}

/** A `ServerInitiatedResponse` as the MCP result the input request asked for. */
export function inputResponseOf(response: Json): Json {
  const sampled = response['sampling_create_message_result'] as Json | null | undefined;
  if (sampled) {
    const message = (sampled['message'] ?? {}) as Json;
    const stopReason = sampled['stop_reason'];
    return {
      role: ROLE_NAME[String(message['role'])] ?? 'assistant',
      content: contentOfSampling(message),
      model: sampled['model'] ?? '',
      ...(typeof stopReason === 'string' && stopReason !== '' ? { stopReason } : {}),
    };
  }
  const roots = response['root_list_result'] as Json | null | undefined;
  if (roots) {
    return {
      roots: ((roots['roots'] as Json[] | undefined) ?? []).map((root) => ({
        uri: root['uri'],
        ...(root['name'] ? { name: root['name'] } : {}),
      })),
    };
  }
  const elicited = response['elicit_result'] as Json | null | undefined;
  if (elicited) {
    const content = fromStruct(elicited['content'] as ProtoStruct | null | undefined);
    return {
      action: ELICIT_ACTION[String(elicited['type'])] ?? 'cancel',
      ...(content === undefined ? {} : { content }),
    };
  }
  return {};
}

function contentOfSampling(message: Json): Json {
  for (const type of ['image', 'audio'] as const) {
    const media = message[type] as Json | null | undefined;
    if (media) {
      return {
        type,
        data: Buffer.from(media['data'] as Uint8Array).toString('base64'),
        mimeType: media['mime_type'],
      };
    }
  }
  return { type: 'text', text: ((message['text'] ?? {}) as Json)['text'] ?? '' };
}

// ---- client side: dependent_requests → MCP requests, MCP results → dependent_responses ----

/** A `ServerInitiatedRequest` as the MCP request it stands for. */
export function inputRequestOf(request: Json): InputRequest {
  const sampling = request['sampling_create_message'] as Json | null | undefined;
  if (sampling) {
    const maxTokens = sampling['max_tokens'];
    return {
      method: 'sampling/createMessage',
      params: {
        messages: ((sampling['messages'] as Json[] | undefined) ?? []).map((message) => ({
          role: ROLE_NAME[String(message['role'])] ?? 'user',
          content: contentOfSampling(message),
        })),
        ...(sampling['system_prompt'] ? { systemPrompt: sampling['system_prompt'] } : {}),
        maxTokens: typeof maxTokens === 'number' && maxTokens > 0 ? maxTokens : 0,
      },
    };
  }
  const elicit = request['elicit_request'] as Json | null | undefined;
  if (elicit) {
    const properties: Json = {};
    for (const [name, schema] of Object.entries((elicit['requested_schema'] ?? {}) as Record<string, Json>)) {
      properties[name] = jsonSchemaOf(schema);
    }
    return {
      method: 'elicitation/create',
      params: {
        message: elicit['message'] ?? '',
        requestedSchema: { type: 'object', properties, required: elicit['required_fields'] ?? [] },
      },
    };
  }
  if (request['list_roots_request']) return { method: 'roots/list', params: {} };
  throw new UnmappableInputError('a dependent request with no field this client knows');
}

function jsonSchemaOf(schema: Json): Json {
  const pick = (inner: Json): Json => ({
    ...(inner['title'] ? { title: inner['title'] } : {}),
    ...(inner['description'] ? { description: inner['description'] } : {}),
  });
  const enumSchema = schema['enum_schema'] as Json | null | undefined;
  if (enumSchema) return { type: 'string', ...pick(enumSchema), enum: enumSchema['enum_list'] ?? [] };
  const booleanSchema = schema['boolean_schema'] as Json | null | undefined;
  if (booleanSchema) return { type: 'boolean', ...pick(booleanSchema) };
  const numberSchema = schema['number_schema'] as Json | null | undefined;
  if (numberSchema) return { type: 'number', ...pick(numberSchema) };
  const stringSchema = (schema['string_schema'] ?? {}) as Json;
  return { type: 'string', ...pick(stringSchema) };
}

/** The MCP result of an input request as a `ServerInitiatedResponse`. */
export function dependentResponseOf(method: string, result: Json): Json {
  switch (method) {
    case 'sampling/createMessage': {
      const message = samplingMessageOf({ role: result['role'], content: result['content'] });
      return {
        sampling_create_message_result: {
          message,
          model: result['model'] ?? '',
          stop_reason: result['stopReason'] ?? '',
        },
      };
    }
    case 'roots/list':
      return {
        root_list_result: {
          roots: ((result['roots'] as Json[] | undefined) ?? []).map((root) => ({
            uri: root['uri'],
            name: root['name'] ?? '',
          })),
        },
      };
    case 'elicitation/create': {
      const content = result['content'] as Json | undefined;
      return {
        elicit_result: {
          type: ELICIT_TYPE[String(result['action'])] ?? 'UNKNOWN',
          ...(content === undefined ? {} : { content: toStruct(content) }),
        },
      };
    }
    default:
      throw new UnmappableInputError(`the native binding cannot carry an answer to ${method}`);
  }
}

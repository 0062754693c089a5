import * as z from 'zod';
import { lazySchema, realSchema } from './lazy-schema.js';
import {
  isError,
  isHeaderMismatchError,
  isInternalError,
  isInvalidParamsError,
  isInvalidRequestError,
  isMethodNotFoundError,
  isMissingRequiredClientCapabilityError,
  isParseError,
  isURLElicitationRequiredError,
  isUnsupportedProtocolVersionError,
} from './generated/checks.js';
import { ErrorCode } from '../errors.js';
import { ClientCapabilitiesSchema } from './capabilities.js';
import { RequestIdSchema } from './common.js';
import { ElicitRequestURLParamsSchema } from './elicitation.js';
import type { Extended, LooseObject } from './schema-types.js';

/**
 * JSON-RPC error objects and the MCP-specific error responses. The error objects (`ParseError` …)
 * are the `error` member; the `…Error` responses of 2025-11-25/2026-07-28 are whole messages, as in
 * the spec's schema.
 */

/** A JSON-RPC error object (the spec's `Error`). */
export const ErrorSchema = lazySchema(
  () =>
    z.looseObject({
      code: z.number().int(),
      message: z.string(),
      data: z.unknown().optional(),
    }),
  isError,
);
export type ErrorObject = z.infer<typeof ErrorSchema>;

/** An error object with a fixed `code`. */
type ErrorWithCode<C extends number> = Extended<typeof ErrorSchema, { code: z.ZodLiteral<C> }>;
const errorWithCode = <C extends number>(code: C): ErrorWithCode<C> =>
  realSchema(ErrorSchema).extend({ code: z.literal(code) });

/** -32700. */
export const ParseErrorSchema = lazySchema(() => errorWithCode(ErrorCode.ParseError), isParseError);
/** -32600. */
export const InvalidRequestErrorSchema = lazySchema(
  () => errorWithCode(ErrorCode.InvalidRequest),
  isInvalidRequestError,
);
/** -32601. */
export const MethodNotFoundErrorSchema = lazySchema(
  () => errorWithCode(ErrorCode.MethodNotFound),
  isMethodNotFoundError,
);
/** -32602; also "resource not found" from 2026-07-28 on. */
export const InvalidParamsErrorSchema = lazySchema(
  () => errorWithCode(ErrorCode.InvalidParams),
  isInvalidParamsError,
);
/** -32603. */
export const InternalErrorSchema = lazySchema(() => errorWithCode(ErrorCode.InternalError), isInternalError);

/** A whole error response whose `error` member is `E`. */
type ErrorResponse<E extends z.ZodType> = LooseObject<{
  jsonrpc: z.ZodLiteral<'2.0'>;
  id: z.ZodOptional<typeof RequestIdSchema>;
  error: E;
}>;
const errorResponse = <E extends z.ZodType>(error: E): ErrorResponse<E> =>
  z.looseObject({ jsonrpc: z.literal('2.0'), id: realSchema(RequestIdSchema).optional(), error });

/** -32020: an HTTP `Mcp-*` header disagrees with the body (2026-07-28). */
export const HeaderMismatchErrorSchema = lazySchema(
  () => errorResponse(errorWithCode(ErrorCode.HeaderMismatch)),
  isHeaderMismatchError,
);
export type HeaderMismatchError = z.infer<typeof HeaderMismatchErrorSchema>;

/** -32021: the request needs a client capability that its `_meta` did not declare (2026-07-28). */
export const MissingRequiredClientCapabilityErrorSchema: ErrorResponse<
  Extended<
    ErrorWithCode<typeof ErrorCode.MissingRequiredClientCapability>,
    { data: LooseObject<{ requiredCapabilities: typeof ClientCapabilitiesSchema }> }
  >
> = lazySchema(
  () =>
    errorResponse(
      errorWithCode(ErrorCode.MissingRequiredClientCapability).extend({
        data: z.looseObject({ requiredCapabilities: realSchema(ClientCapabilitiesSchema) }),
      }),
    ),
  isMissingRequiredClientCapabilityError,
);
export type MissingRequiredClientCapabilityError = z.infer<typeof MissingRequiredClientCapabilityErrorSchema>;

/**
 * -32022: the server does not speak the request's protocol version; lists the ones it does (2026-07-28).
 *
 * @example
 * ```ts
 * const response = {
 *   jsonrpc: '2.0',
 *   id: 1,
 *   error: {
 *     code: -32022,
 *     message: 'Unsupported protocol version',
 *     data: { requested: '2027-01-01', supported: ['2026-07-28'] },
 *   },
 * };
 * const parsed = UnsupportedProtocolVersionErrorSchema.safeParse(response);
 * if (parsed.success) console.log('retry with', parsed.data.error.data.supported[0]); // '2026-07-28'
 * ```
 */
export const UnsupportedProtocolVersionErrorSchema: ErrorResponse<
  Extended<
    ErrorWithCode<typeof ErrorCode.UnsupportedProtocolVersion>,
    { data: LooseObject<{ requested: z.ZodString; supported: z.ZodArray<z.ZodString> }> }
  >
> = lazySchema(
  () =>
    errorResponse(
      errorWithCode(ErrorCode.UnsupportedProtocolVersion).extend({
        data: z.looseObject({ requested: z.string(), supported: z.array(z.string()) }),
      }),
    ),
  isUnsupportedProtocolVersionError,
);
export type UnsupportedProtocolVersionError = z.infer<typeof UnsupportedProtocolVersionErrorSchema>;

/** -32042: the request needs URL elicitations completed first (2025-11-25). */
export const URLElicitationRequiredErrorSchema: ErrorResponse<
  Extended<
    ErrorWithCode<typeof ErrorCode.UrlElicitationRequired>,
    { data: LooseObject<{ elicitations: z.ZodArray<typeof ElicitRequestURLParamsSchema> }> }
  >
> = lazySchema(
  () =>
    errorResponse(
      errorWithCode(ErrorCode.UrlElicitationRequired).extend({
        data: z.looseObject({ elicitations: z.array(realSchema(ElicitRequestURLParamsSchema)) }),
      }),
    ),
  isURLElicitationRequiredError,
);
export type URLElicitationRequiredError = z.infer<typeof URLElicitationRequiredErrorSchema>;

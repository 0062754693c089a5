import { type ElicitRequestURLParams, ErrorCode, McpError } from '@x/protocol';

/**
 * The error a tool throws when the user must complete URL-mode elicitations first (2025-11-25, -32042),
 * with the official 1.x constructor `(elicitations, message?)`.
 *
 * @example
 * ```ts
 * throw new UrlElicitationRequiredError([{ mode: 'url', elicitationId, url, message: 'Sign in first' }]);
 * ```
 */
export class UrlElicitationRequiredError extends McpError {
  constructor(elicitations: ElicitRequestURLParams[], message = 'URL elicitation required') {
    super(ErrorCode.UrlElicitationRequired, message, { elicitations });
  }

  /** The elicitations the client must complete before retrying. */
  get elicitations(): ElicitRequestURLParams[] {
    return (this.data as { elicitations: ElicitRequestURLParams[] }).elicitations;
  }
}

/**
 * An HTTP exchange answered with a status outside 2xx. Carries what a caller needs to decide what to do
 * next (re-authenticate on 401, start over on 404, back off on 429/503).
 *
 * @example
 * ```ts
 * try { await transport.send(message); }
 * catch (error) { if (error instanceof HttpStatusError && error.status === 404) reconnect(); }
 * ```
 */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  readonly status: number;
  readonly statusText: string;
  /** The start of the response body, for diagnostics. */
  readonly body: string;

  constructor(options: { status: number; statusText?: string; body?: string; context: string }) {
    const statusText = options.statusText ?? '';
    const body = options.body ?? '';
    const suffix = body === '' ? '' : `: ${body}`;
    super(
      `${options.context} failed with HTTP ${options.status}${statusText ? ` ${statusText}` : ''}${suffix}`,
    );
    this.status = options.status;
    this.statusText = statusText;
    this.body = body;
  }
}

const MAX_BODY_IN_ERROR = 1024;

/** Builds the error from a response; reading its body releases the connection, and a prefix is kept. */
export async function httpStatusErrorFrom(response: Response, context: string): Promise<HttpStatusError> {
  let body = '';
  try {
    body = (await response.text()).slice(0, MAX_BODY_IN_ERROR);
  } catch {
    // The body is diagnostic only; a broken one must not hide the status.
  }
  return new HttpStatusError({ status: response.status, statusText: response.statusText, body, context });
}

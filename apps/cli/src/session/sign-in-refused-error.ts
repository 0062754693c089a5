/**
 * Sign-ins in a row a server may refuse before x-mcp stops signing in (`maxLogins`): 1. A refused
 * refresh token costs one new sign-in; when the server refuses the credentials that sign-in gave
 * too, another would only reopen the browser in a loop.
 */
export const DEFAULT_MAX_LOGINS = 1;

/**
 * The server refused the credentials of the last sign-in (or the sign-in it needed was one too many):
 * x-mcp does not sign in again until a request is accepted. Through `bridge` the downstream request
 * gets it as its error; `x-mcp` exits 3 on it.
 *
 * @example
 * ```ts
 * throw new SignInRefusedError(new URL('https://mcp.example.com/mcp'), DEFAULT_MAX_LOGINS);
 * ```
 */
export class SignInRefusedError extends Error {
  override readonly name = 'SignInRefusedError';
  readonly code = 'sign_in_refused';
  readonly serverUrl: string;

  constructor(serverUrl: URL, maxLogins: number) {
    super(
      `${serverUrl.href} still refuses x-mcp after ${maxLogins === 1 ? 'a new sign-in' : `${maxLogins} new sign-ins`}; not signing in again (maxLogins ${maxLogins}) until it accepts a request. Check the account's access there, or run 'x-mcp login ${serverUrl.href}'`,
    );
    this.serverUrl = serverUrl.href;
  }
}

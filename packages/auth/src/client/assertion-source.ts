/** What an assertion source learns about the token request it serves. */
export interface AssertionContext {
  /** The authorization server the assertion is for (its audience). */
  issuer: string;
  /** The MCP server (resource) the token is for. */
  resource: string;
  scope?: string | undefined;
}

/**
 * Produces the assertion of a `jwt_bearer` grant.
 *
 * @example
 * ```ts
 * const fromFile: AssertionSource = () => readFile('/var/run/secrets/workload/token', 'utf8');
 * ```
 */
export type AssertionSource = (context: AssertionContext) => string | Promise<string>;

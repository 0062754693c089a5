import { quotedString } from '@x/protocol/http';

/** Parameters of a `Bearer` challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  resourceMetadata: string;
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | undefined;
  errorDescription?: string | undefined;
  scope?: string | undefined;
}

/** Formats a `WWW-Authenticate: Bearer …` value. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params = [`resource_metadata=${quotedString(challenge.resourceMetadata)}`];
  if (challenge.error !== undefined) params.push(`error=${quotedString(challenge.error)}`);
  if (challenge.errorDescription !== undefined)
    params.push(`error_description=${quotedString(challenge.errorDescription)}`);
  if (challenge.scope !== undefined && challenge.scope !== '')
    params.push(`scope=${quotedString(challenge.scope)}`);
  return `Bearer ${params.join(', ')}`;
}

/** A 401/403 answer with its challenge and an OAuth-style JSON body (never echoing the token). */
export function challengeResponse(status: 401 | 403, challenge: BearerChallenge): Response {
  const body: Record<string, string> = { error: challenge.error ?? 'invalid_request' };
  if (challenge.errorDescription !== undefined) body['error_description'] = challenge.errorDescription;
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'www-authenticate': bearerChallenge(challenge) },
  });
}

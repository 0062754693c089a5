/** Parameters of a `Bearer` challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  resourceMetadata: string;
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | undefined;
  errorDescription?: string | undefined;
  scope?: string | undefined;
}

// RFC 7230 quoted-string: a backslash escapes `"` and `\`; control characters cannot appear at all.
function quote(value: string): string {
  let clean = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) continue;
    clean += char === '"' || char === '\\' ? `\\${char}` : char;
  }
  return `"${clean}"`;
}

/** Formats a `WWW-Authenticate: Bearer …` value. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params = [`resource_metadata=${quote(challenge.resourceMetadata)}`];
  if (challenge.error !== undefined) params.push(`error=${quote(challenge.error)}`);
  if (challenge.errorDescription !== undefined)
    params.push(`error_description=${quote(challenge.errorDescription)}`);
  if (challenge.scope !== undefined && challenge.scope !== '') params.push(`scope=${quote(challenge.scope)}`);
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

import { describe, expect, it } from 'vitest';
import { parseBearerChallenge } from '../src/index.js';
import { bearerChallenge } from '../src/server/www-authenticate.js';

describe('parseBearerChallenge', () => {
  it('reads resource_metadata, scope and error, quoted or not, in any order and case', () => {
    expect(
      parseBearerChallenge(
        'bearer error=insufficient_scope, SCOPE="files:read files:write", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp"',
      ),
    ).toEqual({
      error: 'insufficient_scope',
      scope: 'files:read files:write',
      resourceMetadata: 'https://a.example/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('finds the Bearer challenge among others and stops at the next scheme', () => {
    expect(
      parseBearerChallenge(
        'Basic realm="x", Bearer scope="a", error="invalid_token", DPoP algs="ES256", scope="b"',
      ),
    ).toEqual({ scope: 'a', error: 'invalid_token' });
  });

  it('unescapes quoted-pairs and round-trips what bearerChallenge writes', () => {
    const header = bearerChallenge({
      resourceMetadata: 'https://a.example/prm',
      error: 'invalid_token',
      errorDescription: 'say "hi"',
      scope: 'a b',
    });
    expect(parseBearerChallenge(header)).toEqual({
      resourceMetadata: 'https://a.example/prm',
      error: 'invalid_token',
      scope: 'a b',
    });
  });

  it('answers undefined without a Bearer challenge, and drops oversized values', () => {
    expect(parseBearerChallenge(null)).toBeUndefined();
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseBearerChallenge(`Bearer scope="${'a'.repeat(5000)}"`)).toEqual({});
  });
});

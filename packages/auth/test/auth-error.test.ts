import { describe, expect, it } from 'vitest';
import { AuthError } from '../src/index.js';

describe('AuthError', () => {
  it('keeps a typed code, and scrubs tokens out of the cause it carries', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU';
    const opaque = 'A'.repeat(40);
    const error = new AuthError('token_request_failed', 'the refresh_token grant failed', {
      cause: Object.assign(
        new Error(`unexpected body {"access_token":"${jwt}","refresh_token":"${opaque}"}`),
        {
          code: 'OAUTH_PARSE_ERROR',
          body: { access_token: jwt },
        },
      ),
    });
    expect(error.code).toBe('token_request_failed');
    expect(error).toBeInstanceOf(Error);
    const printed = `${error.message} ${String(error.cause)} ${JSON.stringify(error)} ${JSON.stringify(error.cause)} ${error.stack}`;
    expect(printed).not.toContain(jwt);
    expect(printed).not.toContain(opaque);
    expect((error.cause as { code?: string }).code).toBe('OAUTH_PARSE_ERROR');
    expect((error.cause as { body?: unknown }).body).toBeUndefined();
  });
});

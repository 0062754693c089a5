export { AuthError } from './auth-error.js';
export type { AuthErrorCode } from './auth-error.js';
export { bearerAuth } from './server/bearer-auth.js';
export { DEFAULT_DISCOVERY_TIMEOUT_MS, discoverJwksUri } from './server/discover-jwks-uri.js';
export type { DiscoverJwksUriOptions } from './server/discover-jwks-uri.js';
export type { BearerAuthOptions } from './server/bearer-auth.js';
export { DEFAULT_DPOP_MAX_AGE_SEC } from './server/dpop-proof-verifier.js';
export type { DpopProofVerifierOptions } from './server/dpop-proof-verifier.js';
export {
  DEFAULT_MAX_DPOP_PROOFS_PER_KEY,
  DEFAULT_MAX_REMEMBERED_DPOP_PROOFS,
} from './server/dpop-replay-cache.js';
export type { DpopReplayCacheOptions } from './server/dpop-replay-cache.js';
export {
  DEFAULT_INTROSPECTION_CACHE_MAX_ENTRIES,
  DEFAULT_INTROSPECTION_CACHE_TTL_SEC,
  DEFAULT_INTROSPECTION_NEGATIVE_TTL_SEC,
} from './server/introspection-cache.js';
export type { IntrospectionCacheOptions } from './server/introspection-cache.js';
export {
  DEFAULT_INTROSPECTION_TIMEOUT_MS,
  DEFAULT_MAX_INTROSPECTION_RESPONSE_BYTES,
  introspectionVerifier,
} from './server/introspection-verifier.js';
export type { IntrospectionVerifierOptions } from './server/introspection-verifier.js';
export {
  DEFAULT_ACCESS_TOKEN_TYPES,
  DEFAULT_JWKS_COOLDOWN_MS,
  DEFAULT_JWKS_MAX_BYTES,
  DEFAULT_JWKS_TIMEOUT_MS,
  jwtVerifier,
} from './server/jwt-verifier.js';
export type { JwtVerifierOptions } from './server/jwt-verifier.js';
export {
  DEFAULT_RESOURCE_METADATA_MAX_AGE_SEC,
  protectedResourceMetadataHandler,
} from './server/protected-resource-metadata.js';
export type { ProtectedResourceMetadataOptions } from './server/protected-resource-metadata.js';
export { resourceMetadataUrl } from './server/resource-metadata-url.js';
export { DEFAULT_CLOCK_TOLERANCE_SEC } from './server/token-verifier.js';
export type { TokenVerifier } from './server/token-verifier.js';
export { authFetch } from './client/auth-fetch.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './client/capped-fetch.js';
export { parseBearerChallenge } from './client/bearer-challenge.js';
export type { ParsedChallenge } from './client/bearer-challenge.js';
export type { ClientPrivateKey } from './client/client-auth.js';
export {
  DEFAULT_MAX_STEP_UPS,
  DEFAULT_REFRESH_SKEW_SEC,
  httpAuthOptions,
  OAuthClientProvider,
} from './client/oauth-client-provider.js';
export type { OAuthClientProviderOptions } from './client/oauth-client-provider.js';
export { InMemoryTokenStore } from './client/token-store.js';
export type { AuthState, StoredClient, StoredTokens, TokenStore } from './client/token-store.js';
export type { AssertionContext, AssertionSource } from './client/assertion-source.js';
export { tokenExchangeAssertion } from './client/token-exchange-assertion.js';
export type { TokenExchangeAssertionOptions } from './client/token-exchange-assertion.js';

import type { CryptoKey } from 'jose';
import * as oauth from 'oauth4webapi';
import { AuthError } from '../auth-error.js';
import type { StoredClient } from './token-store.js';

/**
 * A private key for `private_key_jwt` (RFC 7523 client assertions). `CryptoKey` is jose's alias of the
 * runtime's Web Crypto key type, so the declaration needs no DOM library in a Node project.
 */
export interface ClientPrivateKey {
  key: CryptoKey;
  kid?: string | undefined;
}

/**
 * The token endpoint authentication to use: the client's own method when it has one, else by what the
 * AS supports (`client_secret_basic` first, the RFC 8414 default, then `client_secret_post`), else none.
 */
export function clientAuthFor(
  as: oauth.AuthorizationServer,
  client: StoredClient,
  privateKey: ClientPrivateKey | undefined,
): oauth.ClientAuth {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  let method = client.tokenEndpointAuthMethod;
  if (method === undefined) {
    if (privateKey !== undefined && supported.includes('private_key_jwt')) method = 'private_key_jwt';
    else if (client.clientSecret === undefined) method = 'none';
    else if (supported.includes('client_secret_basic')) method = 'client_secret_basic';
    else if (supported.includes('client_secret_post')) method = 'client_secret_post';
    else method = 'none';
  }
  switch (method) {
    case 'none':
      return oauth.None();
    case 'client_secret_basic':
    case 'client_secret_post': {
      if (client.clientSecret === undefined)
        throw new AuthError('invalid_options', `token endpoint auth ${method} needs a client secret`);
      return method === 'client_secret_basic'
        ? secretBasic(client.clientSecret)
        : oauth.ClientSecretPost(client.clientSecret);
    }
    case 'private_key_jwt':
      if (privateKey === undefined)
        throw new AuthError('invalid_options', 'token endpoint auth private_key_jwt needs a privateKey');
      return oauth.PrivateKeyJwt(
        privateKey.kid === undefined ? privateKey.key : { key: privateKey.key, kid: privateKey.kid },
      );
    default:
      throw new AuthError('invalid_options', `unsupported token endpoint auth method ${method}`);
  }
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): id and secret form-urlencoded, then base64. Encoded with
 * `encodeURIComponent` (which leaves `-._~` alone) rather than escaping every non-alphanumeric, as
 * many servers decode only what the form encoding requires.
 */
function secretBasic(clientSecret: string): oauth.ClientAuth {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${encode(client.client_id)}:${encode(clientSecret)}`)}`);
  };
}

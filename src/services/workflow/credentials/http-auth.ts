// The HTTP Request node's authentication options, applied to a request before it is sent:
// generic credential types (Basic, Header, Query, Bearer, Custom, OAuth2 client credentials)
// with v3+'s `genericCredentialType`, v1–v2's `basicAuth`/`headerAuth`/…, and
// `predefinedCredentialType` when it names one of those types. A type that cannot be applied
// fails the node with a message saying so; it is never sent without its authentication.
import { NodeOperationError, type NodeContext } from '../engine/node-type.js';
import { LEGACY_HTTP_AUTH } from './credentials.js';

/** The parts of a request authentication changes. */
export interface AuthTarget {
  query: Array<[string, string]>;
  headers: Record<string, string>;
}

/** The credential type the node's authentication parameters name for item `i`, or undefined for none. */
async function credentialTypeOf(ctx: NodeContext, i: number): Promise<string | undefined> {
  const auth = String(await ctx.param('authentication', i, 'none'));
  if (auth === 'none' || auth === '') return undefined;
  if (ctx.typeVersion >= 3) {
    if (auth === 'genericCredentialType') return String(await ctx.param('genericAuthType', i, ''));
    if (auth === 'predefinedCredentialType') return String(await ctx.param('nodeCredentialType', i, ''));
    throw new NodeOperationError(`Authentication "${auth}" is not supported`);
  }
  const type = LEGACY_HTTP_AUTH[auth];
  if (!type) throw new NodeOperationError(`Authentication "${auth}" is not supported`);
  return type;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** RFC 6749 (sections 4.1.2.1 and 5.2): what each error code of a token endpoint's answer means. */
const OAUTH2_ERRORS: Record<string, string> = {
  invalid_request:
    'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.',
  invalid_client:
    'Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method).',
  invalid_grant:
    'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  unauthorized_client: 'The client is not authorized to request an authorization code using this method.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
};

/** The credential's extra token-request body properties (JSON text); unreadable text adds none, as in n8n. */
function additionalBodyProperties(raw: unknown): Record<string, string> {
  if (!raw) return {};
  let parsed: unknown = raw;
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw);
    } catch {
      return {};
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

async function oAuth2Token(ctx: NodeContext, data: Record<string, unknown>): Promise<string> {
  if (data.grantType !== 'clientCredentials') {
    throw new NodeOperationError(
      `OAuth2 grant type "${text(data.grantType)}" needs a user to authorize in a browser, which this instance does not offer; use clientCredentials`,
    );
  }
  // As n8n builds it (oracle: http-4.2-auth-oAuth2Api-*): the grant, the extra body properties
  // (whatever sendAdditionalBodyProperties says), the scope (empty too), then the client's id and
  // secret in the body or a Basic header.
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    ...additionalBodyProperties(data.additionalBodyProperties),
  });
  form.set('scope', text(data.scope));
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (data.authentication === 'body') {
    form.set('client_id', text(data.clientId));
    form.set('client_secret', text(data.clientSecret));
  } else
    headers.authorization = `Basic ${Buffer.from(`${text(data.clientId)}:${text(data.clientSecret)}`).toString('base64')}`;
  const res = await ctx.services.fetch(text(data.accessTokenUrl), { method: 'POST', headers, body: form.toString() });
  const body = (await res.json().catch(() => ({}))) as {
    access_token?: unknown;
    error?: unknown;
    error_description?: unknown;
  };
  if (!res.ok && typeof body.error === 'string') {
    // An OAuth2 error answer fails with its meaning in RFC 6749's words, as n8n does (oracle: http-4.2-auth-oAuth2Api-refused).
    throw new NodeOperationError(
      OAUTH2_ERRORS[body.error] ?? (typeof body.error_description === 'string' ? body.error_description : body.error),
    );
  }
  if (!res.ok || typeof body.access_token !== 'string')
    throw new NodeOperationError(`OAuth2 token request failed with status code ${res.status}`);
  return body.access_token;
}

/** Adds the node's credential to the request for item `i` (no-op without authentication). */
export async function authenticate(ctx: NodeContext, i: number, req: AuthTarget): Promise<void> {
  const type = await credentialTypeOf(ctx, i);
  if (!type) return;
  if (!ctx.services.credential) throw new NodeOperationError('Credentials are not available in this run');
  const data = await ctx.services.credential(ctx.node, type);
  switch (type) {
    case 'httpBasicAuth':
      req.headers.authorization = `Basic ${Buffer.from(`${text(data.user)}:${text(data.password)}`).toString('base64')}`;
      return;
    case 'httpHeaderAuth':
      req.headers[text(data.name).toLowerCase()] = text(data.value);
      return;
    case 'httpQueryAuth':
      req.query.push([text(data.name), text(data.value)]);
      return;
    case 'httpBearerAuth':
      req.headers.authorization = `Bearer ${text(data.token)}`;
      return;
    case 'httpCustomAuth': {
      let custom: { headers?: Record<string, unknown>; qs?: Record<string, unknown>; body?: unknown };
      try {
        custom = JSON.parse(text(data.json));
      } catch {
        throw new NodeOperationError("The Custom Auth credential's JSON is not valid JSON");
      }
      if (custom.body !== undefined)
        throw new NodeOperationError('Custom Auth with a body is not supported; use headers or qs');
      for (const [k, v] of Object.entries(custom.headers ?? {})) req.headers[k.toLowerCase()] = text(v);
      for (const [k, v] of Object.entries(custom.qs ?? {})) req.query.push([k, text(v)]);
      return;
    }
    case 'oAuth2Api':
      req.headers.authorization = `Bearer ${await oAuth2Token(ctx, data)}`;
      return;
    default:
      throw new NodeOperationError(
        `Credential type "${type}" is not supported by the HTTP Request node here (supported: httpBasicAuth, httpHeaderAuth, httpQueryAuth, httpBearerAuth, httpCustomAuth, oAuth2Api with clientCredentials)`,
      );
  }
}

// The credential types this instance knows: the ones the HTTP Request node's authentication
// options use (and the Webhook node names). Each lists its fields as n8n's credential type
// does, which gives GET /credentials/schema/{type} (n8n's JSON-schema shape) and the check
// of a POSTed `data`.

interface Field {
  name: string;
  type: 'string' | 'boolean' | 'number';
  required?: boolean;
  /** Allowed values (n8n's options). */
  options?: string[];
  /** Required only when another field has one of these values. */
  requiredWhen?: { field: string; values: string[] };
}

export const CREDENTIAL_TYPES: Record<string, { displayName: string; fields: Field[] }> = {
  httpBasicAuth: {
    displayName: 'Basic Auth',
    fields: [
      { name: 'user', type: 'string' },
      { name: 'password', type: 'string' },
    ],
  },
  httpHeaderAuth: {
    displayName: 'Header Auth',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'value', type: 'string' },
    ],
  },
  httpQueryAuth: {
    displayName: 'Query Auth',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'value', type: 'string' },
    ],
  },
  httpBearerAuth: { displayName: 'Bearer Auth', fields: [{ name: 'token', type: 'string', required: true }] },
  httpCustomAuth: { displayName: 'Custom Auth', fields: [{ name: 'json', type: 'string', required: true }] },
  httpDigestAuth: {
    displayName: 'Digest Auth',
    fields: [
      { name: 'user', type: 'string' },
      { name: 'password', type: 'string' },
    ],
  },
  jwtAuth: {
    displayName: 'JWT Auth',
    fields: [
      { name: 'keyType', type: 'string', options: ['passphrase', 'pemKey'] },
      { name: 'secret', type: 'string' },
      { name: 'privateKey', type: 'string' },
      { name: 'publicKey', type: 'string' },
      {
        name: 'algorithm',
        type: 'string',
        // prettier-ignore
        options: ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'none'],
      },
    ],
  },
  // The TOTP node's secret (base32) and optional `issuer:username` label.
  totpApi: {
    displayName: 'TOTP API',
    fields: [
      { name: 'secret', type: 'string', required: true },
      { name: 'label', type: 'string' },
    ],
  },
  oAuth2Api: {
    displayName: 'OAuth2 API',
    fields: [
      {
        name: 'grantType',
        type: 'string',
        required: true,
        options: ['authorizationCode', 'clientCredentials', 'pkce'],
      },
      { name: 'accessTokenUrl', type: 'string', required: true },
      { name: 'clientId', type: 'string', required: true },
      { name: 'clientSecret', type: 'string', required: true },
      { name: 'scope', type: 'string' },
      { name: 'authentication', type: 'string', options: ['header', 'body'] },
      { name: 'authUrl', type: 'string', requiredWhen: { field: 'grantType', values: ['authorizationCode', 'pkce'] } },
      { name: 'authQueryParameters', type: 'string' },
      // n8n's API wants these given with a client-credentials grant (its schema requires them; the
      // server URL is for dynamic client registration, which its API cannot switch on): taken.
      { name: 'serverUrl', type: 'string' },
      // Extra properties of the token request's body, a JSON object as text (sent when given, as n8n).
      { name: 'sendAdditionalBodyProperties', type: 'boolean' },
      { name: 'additionalBodyProperties', type: 'string' },
    ],
  },
};

export const knownCredentialType = (type: string): boolean => Object.hasOwn(CREDENTIAL_TYPES, type);

/** n8n's answer to GET /credentials/schema/{type}: a JSON schema of the type's data. */
export function credentialSchema(type: string): Record<string, unknown> {
  const def = CREDENTIAL_TYPES[type];
  const properties = Object.fromEntries(
    def.fields.map((f) => [f.name, { type: f.type, ...(f.options ? { enum: f.options } : {}) }]),
  );
  const conditional = def.fields.filter((f) => f.requiredWhen);
  return {
    additionalProperties: false,
    type: 'object',
    properties,
    required: def.fields.filter((f) => f.required).map((f) => f.name),
    ...(conditional.length
      ? {
          allOf: conditional.map((f) => ({
            if: { properties: { [f.requiredWhen!.field]: { enum: f.requiredWhen!.values } } },
            then: { required: [f.name] },
          })),
        }
      : {}),
  };
}

/** The first problem of a credential's data, in n8n's request/body wording, or undefined. */
export function credentialDataProblem(
  type: string,
  data: Record<string, unknown>,
  partial = false,
): string | undefined {
  const def = CREDENTIAL_TYPES[type];
  for (const key of Object.keys(data))
    if (!def.fields.some((f) => f.name === key))
      return `request/body/data is not allowed to have the additional property "${key}"`;
  for (const f of def.fields) {
    const v = data[f.name];
    const required =
      f.required || (f.requiredWhen && f.requiredWhen.values.includes(String(data[f.requiredWhen.field])));
    if (v === undefined) {
      if (required && !partial) return `request/body/data requires property "${f.name}"`;
      continue;
    }
    if (typeof v !== f.type) return `request/body/data/${f.name} must be ${f.type}`;
    if (f.options && !f.options.includes(String(v)))
      return `request/body/data/${f.name} must be equal to one of the allowed values: ${f.options.join(', ')}`;
  }
  return undefined;
}

// HTTP Request cases (v4.2, and v3 where its parameters are the same): every request goes to
// the oracle's echo server (test/fixtures/n8n-oracle/echo-server.mjs), which both real n8n and
// the engine can reach at the same fixed loopback address, so what n8n sent is in the output.
import { ECHO_BASE } from '../../test/fixtures/n8n-oracle/echo-server.mjs';

const kv = (list) => ({ parameters: list.map(([name, value]) => ({ name, value })) });
const http = (typeVersion, parameters, extra = {}) => ({
  name: 'Test',
  type: 'n8n-nodes-base.httpRequest',
  typeVersion,
  parameters: { options: {}, ...parameters },
  ...extra,
});
const SOME = ['ordinary', 'missing', 'unicode', 'nulls'];
const ONE = ['ordinary'];

const families = [];
const add = (name, node, inputs = SOME, more = {}) => families.push({ name, nodes: [node], inputs, ...more });

const query = {
  sendQuery: true,
  queryParameters: kv([
    ['who', '={{ $json.name }}'],
    ['n', '1'],
    ['age', '={{ $json.age }}'],
  ]),
};
for (const v of [4.2, 3]) add(`http-${v}-get-query`, http(v, { url: `${ECHO_BASE}/echo/get`, ...query }));
add(
  'http-4.2-post-json-body',
  http(4.2, {
    method: 'POST',
    url: `${ECHO_BASE}/echo/post`,
    sendBody: true,
    specifyBody: 'json',
    jsonBody:
      '={\n  "who": {{ JSON.stringify($json.name ?? null) }},\n  "tags": {{ JSON.stringify($json.tags ?? []) }},\n  "n": 1\n}',
  }),
);
for (const v of [4.2, 3])
  add(
    `http-${v}-post-keypair-body`,
    http(v, {
      method: 'POST',
      url: `${ECHO_BASE}/echo/post`,
      sendBody: true,
      bodyParameters: kv([
        ['who', '={{ $json.name }}'],
        ['age', '={{ $json.age }}'],
        ['fixed', 'text'],
      ]),
    }),
  );
add(
  'http-4.2-get-with-body',
  http(4.2, { url: `${ECHO_BASE}/echo/get-body`, sendBody: true, bodyParameters: kv([['who', '={{ $json.name }}']]) }),
);
add(
  'http-4.2-post-form',
  http(4.2, {
    method: 'POST',
    url: `${ECHO_BASE}/echo/form`,
    sendBody: true,
    contentType: 'form-urlencoded',
    bodyParameters: kv([
      ['who', '={{ $json.name }}'],
      ['city', '={{ $json.city }}'],
    ]),
  }),
);
add(
  'http-4.2-headers',
  http(4.2, {
    url: `${ECHO_BASE}/echo/headers`,
    sendHeaders: true,
    headerParameters: kv([
      ['X-Who', '={{ $json.name }}'],
      ['X-Fixed', 'yes'],
    ]),
  }),
  ['ordinary', 'missing'],
);
add(
  'http-4.2-response-text',
  http(4.2, { url: `${ECHO_BASE}/text`, ...query, options: { response: { response: { responseFormat: 'text' } } } }),
  ONE,
);
add(
  'http-4.2-response-json',
  http(4.2, { url: `${ECHO_BASE}/echo/json`, options: { response: { response: { responseFormat: 'json' } } } }),
  ONE,
);
add(
  'http-4.2-response-text-of-json',
  http(4.2, {
    url: `${ECHO_BASE}/echo/json-as-text`,
    options: { response: { response: { responseFormat: 'text', outputPropertyName: 'raw' } } },
  }),
  ONE,
);
add('http-4.2-response-list', http(4.2, { url: `${ECHO_BASE}/list` }), ONE);
add('http-4.2-response-list-mixed', http(4.2, { url: `${ECHO_BASE}/list-mixed` }), ONE);
add('http-3-response-list-mixed', http(3, { url: `${ECHO_BASE}/list-mixed` }), ONE);
add('http-1-response-list-mixed', http(1, { url: `${ECHO_BASE}/list-mixed` }), ONE);
add('http-2-response-list-mixed', http(2, { url: `${ECHO_BASE}/list-mixed` }), ONE);
add(
  'http-4.2-full-response',
  http(4.2, { url: `${ECHO_BASE}/echo/full`, options: { response: { response: { fullResponse: true } } } }),
  ONE,
);
add(
  'http-4.2-pagination-off',
  http(4.2, {
    url: `${ECHO_BASE}/echo/pages`,
    ...query,
    options: { pagination: { pagination: { paginationMode: 'off' } } },
  }),
  ONE,
);
for (const code of [400, 401, 403, 404, 429, 500, 503])
  add(`http-4.2-error-${code}`, http(4.2, { url: `${ECHO_BASE}/status/${code}` }), ONE);
add(
  'http-4.2-error-500-never-error',
  http(4.2, { url: `${ECHO_BASE}/status/500`, options: { response: { response: { neverError: true } } } }),
  ONE,
);
add(
  'http-4.2-error-500-never-error-full',
  http(4.2, {
    url: `${ECHO_BASE}/status/500`,
    options: { response: { response: { neverError: true, fullResponse: true } } },
  }),
  ONE,
);
// n8n puts the client's error object in the item; its stack names files of the machine that ran it.
add(
  'http-4.2-error-404-continue',
  http(4.2, { url: `${ECHO_BASE}/status/404` }, { onError: 'continueRegularOutput' }),
  ONE,
  { volatileKeys: ['stack'] },
);

// ---- Authentication: every credential type the node applies, as the generic credential type,
// as a predefined one, and in v1's/v2's own parameter. The echo shows authorization and x-* headers.
const CREDENTIALS = {
  httpBasicAuth: { name: 'oracle basic', data: { user: 'ann', password: 's3cret ü' } },
  httpHeaderAuth: { name: 'oracle header', data: { name: 'X-Api-Key', value: 'key-123' } },
  httpQueryAuth: { name: 'oracle query', data: { name: 'token', value: 'q 1&2' } },
  httpBearerAuth: { name: 'oracle bearer', data: { token: 'bearer-abc' } },
  httpCustomAuth: {
    name: 'oracle custom',
    data: { json: JSON.stringify({ headers: { 'X-Custom': 'c1' }, qs: { cq: '2' } }) },
  },
};
const credentialRef = (type) => ({ [type]: { id: `oracle-${type}`, name: CREDENTIALS[type].name } });
const credentialsOf = (type) => [{ type, ...CREDENTIALS[type] }];
const authQuery = { sendQuery: true, queryParameters: kv([['who', '={{ $json.name }}']]) };
for (const type of Object.keys(CREDENTIALS)) {
  add(
    `http-4.2-auth-${type}`,
    http(
      4.2,
      { url: `${ECHO_BASE}/echo/auth`, authentication: 'genericCredentialType', genericAuthType: type, ...authQuery },
      { credentials: credentialRef(type) },
    ),
    ONE,
    { credentials: credentialsOf(type) },
  );
}
for (const type of ['httpHeaderAuth', 'httpBearerAuth', 'httpBasicAuth']) {
  add(
    `http-4.2-auth-predefined-${type}`,
    http(
      4.2,
      { url: `${ECHO_BASE}/echo/auth`, authentication: 'predefinedCredentialType', nodeCredentialType: type },
      { credentials: credentialRef(type) },
    ),
    ONE,
    { credentials: credentialsOf(type) },
  );
}
// (v2 with any authentication fails in n8n 2.8.4 with "Cannot read properties of undefined
// (reading 'status')", whatever the answer: an n8n fault the engine does not copy, not recorded.)
for (const [v, auth, type] of [
  [1, 'basicAuth', 'httpBasicAuth'],
  [1, 'headerAuth', 'httpHeaderAuth'],
  [1, 'queryAuth', 'httpQueryAuth'],
]) {
  add(
    `http-${v}-auth-${auth}`,
    http(v, { url: `${ECHO_BASE}/echo/auth`, authentication: auth }, { credentials: credentialRef(type) }),
    ONE,
    { credentials: credentialsOf(type) },
  );
}

// OAuth2 with the client-credentials grant: the token comes from the echo server's /oauth/token,
// which names in the token how the client authenticated, the scope it asked for and any extra
// body property (`audience`), so the echo of the Authorization header shows all three. The client
// sends its id and secret in a Basic header (`authentication: header`) or in the form body.
// (n8n's credential schema wants `serverUrl` and, with this grant, both additional-body fields given.)
const oauth2 = (name, data) => ({
  type: 'oAuth2Api',
  name,
  data: {
    grantType: 'clientCredentials',
    accessTokenUrl: `${ECHO_BASE}/oauth/token`,
    clientId: 'oracle-client',
    clientSecret: 'oracle-secret',
    serverUrl: '',
    sendAdditionalBodyProperties: false,
    additionalBodyProperties: '',
    ...data,
  },
});
const OAUTH2 = {
  header: oauth2('oracle oauth2 header', { scope: 'read write', authentication: 'header' }),
  body: oauth2('oracle oauth2 body', {
    scope: 'read',
    authentication: 'body',
    sendAdditionalBodyProperties: true,
    additionalBodyProperties: '{"audience": "oracle-api"}',
  }),
  // A secret the token endpoint refuses: the token request fails, and so does the node.
  refused: oauth2('oracle oauth2 refused', { clientSecret: 'wrong', scope: '', authentication: 'header' }),
};
for (const [how, credential] of Object.entries(OAUTH2)) {
  add(
    `http-4.2-auth-oAuth2Api-${how}`,
    http(
      4.2,
      {
        url: `${ECHO_BASE}/echo/auth`,
        authentication: 'genericCredentialType',
        genericAuthType: 'oAuth2Api',
        ...authQuery,
      },
      { credentials: { oAuth2Api: { id: `oracle-oAuth2Api-${how}`, name: credential.name } } },
    ),
    ONE,
    { credentials: [credential] },
  );
}

// ---- Pagination: the echo server's /pages/… answers have 3 pages ---------------------------------
const paginate = (pagination) => ({ pagination: { pagination } });
const pageParam = (type, name, value = '={{ $pageCount + 1 }}') => ({ parameters: [{ type, name, value }] });
const ONE_ITEM = { one: { items: [{ name: 'Ann' }] }, two: { items: [{ name: 'Ann' }, { name: 'Bob' }] } };
const addPaged = (name, parameters, pagination) =>
  add(name, http(4.2, { ...parameters, options: { ...parameters.options, ...paginate(pagination) } }), undefined, {
    bodies: ONE_ITEM,
  });
addPaged(
  'http-4.2-paginate-next-url',
  { url: `${ECHO_BASE}/pages/next` },
  {
    paginationMode: 'responseContainsNextURL',
    nextURL: '={{ $response.body.next }}',
    paginationCompleteWhen: 'other',
    completeExpression: '={{ !$response.body.next }}',
  },
);
addPaged(
  'http-4.2-paginate-next-url-full',
  { url: `${ECHO_BASE}/pages/next`, options: { response: { response: { fullResponse: true } } } },
  {
    paginationMode: 'responseContainsNextURL',
    nextURL: '={{ $response.body.next }}',
    paginationCompleteWhen: 'other',
    completeExpression: '={{ $response.body.next === null }}',
  },
);
addPaged(
  'http-4.2-paginate-param-empty',
  { url: `${ECHO_BASE}/pages/list`, ...authQuery },
  {
    paginationMode: 'updateAParameterInEachRequest',
    parameters: pageParam('qs', 'page'),
    paginationCompleteWhen: 'responseIsEmpty',
  },
);
addPaged(
  'http-4.2-paginate-status',
  { url: `${ECHO_BASE}/pages/status` },
  {
    paginationMode: 'updateAParameterInEachRequest',
    parameters: pageParam('qs', 'page'),
    paginationCompleteWhen: 'receiveSpecificStatusCodes',
    statusCodesWhenComplete: '404',
  },
);
addPaged(
  'http-4.2-paginate-max-requests',
  { url: `${ECHO_BASE}/pages/list` },
  {
    paginationMode: 'updateAParameterInEachRequest',
    parameters: pageParam('qs', 'page'),
    paginationCompleteWhen: 'responseIsEmpty',
    limitPagesFetched: true,
    maxRequests: 2,
  },
);
addPaged(
  'http-4.2-paginate-header',
  { url: `${ECHO_BASE}/pages/next` },
  {
    paginationMode: 'updateAParameterInEachRequest',
    parameters: pageParam('headers', 'x-page'),
    paginationCompleteWhen: 'other',
    completeExpression: '={{ $response.body.page >= 3 }}',
  },
);
addPaged(
  'http-4.2-paginate-body',
  {
    method: 'POST',
    url: `${ECHO_BASE}/pages/next`,
    sendBody: true,
    specifyBody: 'json',
    jsonBody: '={"page": 1, "who": {{ JSON.stringify($json.name) }}}',
  },
  {
    paginationMode: 'updateAParameterInEachRequest',
    parameters: pageParam('body', 'page'),
    paginationCompleteWhen: 'other',
    completeExpression: '={{ $response.body.next === null }}',
  },
);
addPaged(
  'http-4.2-paginate-request',
  { url: `${ECHO_BASE}/pages/list` },
  {
    paginationMode: 'updateAParameterInEachRequest',
    parameters: pageParam('qs', 'page', '={{ Number($request.qs?.page ?? 1) + 1 }}'),
    paginationCompleteWhen: 'responseIsEmpty',
  },
);

// ---- Respond to Webhook (the Webhook answers with `responseNode`) --------------------------------
const respond = (name, parameters, inputs = ['ordinary', 'unicode', 'none']) =>
  families.push({
    name,
    responseMode: 'responseNode',
    inputs,
    nodes: [
      {
        name: 'Respond',
        type: 'n8n-nodes-base.respondToWebhook',
        typeVersion: 1.1,
        parameters: { options: {}, ...parameters },
      },
    ],
  });
respond('respond-1.1-first-item', {});
respond('respond-1.1-all-items', { respondWith: 'allIncomingItems', options: { responseCode: 201 } });
respond('respond-1.1-json', {
  respondWith: 'json',
  responseBody: '={\n  "count": {{ $input.all().length }},\n  "first": {{ JSON.stringify($json.name ?? null) }}\n}',
  options: { responseCode: 202, responseHeaders: { entries: [{ name: 'X-Case', value: 'json' }] } },
});
respond('respond-1.1-text', { respondWith: 'text', responseBody: '=Hello {{ $json.name }}' });
respond('respond-1.1-no-data', { respondWith: 'noData', options: { responseCode: 204 } });
respond('respond-1.1-first-item-key', { respondWith: 'firstIncomingItem', options: { responseKey: 'data' } });
respond('respond-1.1-all-items-key', { respondWith: 'allIncomingItems', options: { responseKey: 'rows' } });
respond('respond-1.1-json-object', { respondWith: 'json', responseBody: { fixed: true, list: [1, 2] } }, ['ordinary']);
respond('respond-1.1-json-invalid', { respondWith: 'json', responseBody: '={ "bad": {{ $json.name }} }' }, [
  'ordinary',
]);
// A redirect answers 307 (or the given code) with a Location header; the recorder and the suite
// do not follow it, so the target need not exist.
respond('respond-1.1-redirect', {
  respondWith: 'redirect',
  redirectURL: '=https://example.com/after?who={{ $json.name }}',
});
respond(
  'respond-1.1-redirect-302',
  { respondWith: 'redirect', redirectURL: 'https://example.com/moved', options: { responseCode: 302 } },
  ['ordinary'],
);
respond(
  'respond-1.1-text-header',
  {
    respondWith: 'text',
    responseBody: '=<b>{{ $json.city }}</b>',
    options: { responseHeaders: { entries: [{ name: 'content-type', value: 'text/plain' }] } },
  },
  ['ordinary'],
);

// ---- Webhook node response options (responseMode lastNode / onReceived) ---------------------------
const hook = (name, { responseMode, ...webhook }, webhookVersion = 2) =>
  families.push({
    name,
    responseMode,
    webhook,
    webhookVersion,
    inputs: ['ordinary', 'none'],
    nodes: [{ name: 'Test', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} }],
  });
// v2 takes the code as {values: {responseCode}}; a plain number there is not read (webhook-2-first-entry-json).
hook('webhook-2-first-entry-json', { responseData: 'firstEntryJson', options: { responseCode: 201 } });
hook('webhook-2-response-code', {
  responseData: 'firstEntryJson',
  options: { responseCode: { values: { responseCode: 201 } } },
});
hook('webhook-2-custom-code', {
  responseData: 'firstEntryJson',
  options: { responseCode: { values: { responseCode: 'customCode', customCode: 299 } } },
});
hook('webhook-1-response-code', { responseData: 'allEntries', responseCode: 202 }, 1);
hook('webhook-2-property-name', { responseData: 'firstEntryJson', options: { responsePropertyName: 'city' } });
hook('webhook-2-property-name-object', { responseData: 'firstEntryJson', options: { responsePropertyName: 'tags' } });
hook('webhook-2-no-data', { responseData: 'noData' });
hook('webhook-2-on-received', { responseMode: 'onReceived', options: { responseCode: 202 } });
hook('webhook-2-on-received-code', {
  responseMode: 'onReceived',
  options: { responseCode: { values: { responseCode: 202 } } },
});
hook('webhook-2-on-received-data', { responseMode: 'onReceived', options: { responseData: 'custom answer' } });

export const HTTP_FAMILIES = families;

// HTTP Request cases (v4.2, and v3 where its parameters are the same): every request goes to
// the oracle's echo server (test/fixtures/n8n-oracle/echo-server.mjs), which both real n8n and
// the engine can reach at the same fixed loopback address, so what n8n sent is in the output.
import { ECHO_BASE } from '../../test/fixtures/n8n-oracle/echo-server.mjs';

const kv = (list) => ({ parameters: list.map(([name, value]) => ({ name, value })) });
const http = (typeVersion, parameters, extra = {}) => ({ name: 'Test', type: 'n8n-nodes-base.httpRequest', typeVersion, parameters: { options: {}, ...parameters }, ...extra });
const SOME = ['ordinary', 'missing', 'unicode', 'nulls'];
const ONE = ['ordinary'];

const families = [];
const add = (name, node, inputs = SOME, more = {}) => families.push({ name, nodes: [node], inputs, ...more });

const query = { sendQuery: true, queryParameters: kv([['who', '={{ $json.name }}'], ['n', '1'], ['age', '={{ $json.age }}']]) };
for (const v of [4.2, 3]) add(`http-${v}-get-query`, http(v, { url: `${ECHO_BASE}/echo/get`, ...query }));
add('http-4.2-post-json-body', http(4.2, { method: 'POST', url: `${ECHO_BASE}/echo/post`, sendBody: true, specifyBody: 'json', jsonBody: '={\n  "who": {{ JSON.stringify($json.name ?? null) }},\n  "tags": {{ JSON.stringify($json.tags ?? []) }},\n  "n": 1\n}' }));
for (const v of [4.2, 3]) add(`http-${v}-post-keypair-body`, http(v, { method: 'POST', url: `${ECHO_BASE}/echo/post`, sendBody: true, bodyParameters: kv([['who', '={{ $json.name }}'], ['age', '={{ $json.age }}'], ['fixed', 'text']]) }));
add('http-4.2-get-with-body', http(4.2, { url: `${ECHO_BASE}/echo/get-body`, sendBody: true, bodyParameters: kv([['who', '={{ $json.name }}']]) }));
add('http-4.2-post-form', http(4.2, { method: 'POST', url: `${ECHO_BASE}/echo/form`, sendBody: true, contentType: 'form-urlencoded', bodyParameters: kv([['who', '={{ $json.name }}'], ['city', '={{ $json.city }}']]) }));
add('http-4.2-headers', http(4.2, { url: `${ECHO_BASE}/echo/headers`, sendHeaders: true, headerParameters: kv([['X-Who', '={{ $json.name }}'], ['X-Fixed', 'yes']]) }), ['ordinary', 'missing']);
add('http-4.2-response-text', http(4.2, { url: `${ECHO_BASE}/text`, ...query, options: { response: { response: { responseFormat: 'text' } } } }), ONE);
add('http-4.2-response-json', http(4.2, { url: `${ECHO_BASE}/echo/json`, options: { response: { response: { responseFormat: 'json' } } } }), ONE);
add('http-4.2-response-text-of-json', http(4.2, { url: `${ECHO_BASE}/echo/json-as-text`, options: { response: { response: { responseFormat: 'text', outputPropertyName: 'raw' } } } }), ONE);
add('http-4.2-response-list', http(4.2, { url: `${ECHO_BASE}/list` }), ONE);
add('http-4.2-full-response', http(4.2, { url: `${ECHO_BASE}/echo/full`, options: { response: { response: { fullResponse: true } } } }), ONE);
add('http-4.2-pagination-off', http(4.2, { url: `${ECHO_BASE}/echo/pages`, ...query, options: { pagination: { pagination: { paginationMode: 'off' } } } }), ONE);
for (const code of [400, 401, 403, 404, 429, 500, 503]) add(`http-4.2-error-${code}`, http(4.2, { url: `${ECHO_BASE}/status/${code}` }), ONE);
add('http-4.2-error-500-never-error', http(4.2, { url: `${ECHO_BASE}/status/500`, options: { response: { response: { neverError: true } } } }), ONE);
add('http-4.2-error-500-never-error-full', http(4.2, { url: `${ECHO_BASE}/status/500`, options: { response: { response: { neverError: true, fullResponse: true } } } }), ONE);
// n8n puts the client's error object in the item; its stack names files of the machine that ran it.
add('http-4.2-error-404-continue', http(4.2, { url: `${ECHO_BASE}/status/404` }, { onError: 'continueRegularOutput' }), ONE, { volatileKeys: ['stack'] });

// ---- Respond to Webhook (the Webhook answers with `responseNode`) --------------------------------
const respond = (name, parameters, inputs = ['ordinary', 'unicode', 'none']) =>
  families.push({ name, responseMode: 'responseNode', inputs, nodes: [{ name: 'Respond', type: 'n8n-nodes-base.respondToWebhook', typeVersion: 1.1, parameters: { options: {}, ...parameters } }] });
respond('respond-1.1-first-item', {});
respond('respond-1.1-all-items', { respondWith: 'allIncomingItems', options: { responseCode: 201 } });
respond('respond-1.1-json', { respondWith: 'json', responseBody: '={\n  "count": {{ $input.all().length }},\n  "first": {{ JSON.stringify($json.name ?? null) }}\n}', options: { responseCode: 202, responseHeaders: { entries: [{ name: 'X-Case', value: 'json' }] } } });
respond('respond-1.1-text', { respondWith: 'text', responseBody: '=Hello {{ $json.name }}' });
respond('respond-1.1-no-data', { respondWith: 'noData', options: { responseCode: 204 } });

export const HTTP_FAMILIES = families;

// HTTP Request, in the v1–v2 parameter format (requestMethod, jsonParameters, …ParametersUi)
// and the v3–v4 format (method, sendQuery/sendHeaders/sendBody, options.response). Every
// request goes through the service's guarded fetch (SSRF guard, timeout).
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { authenticate } from '../credentials/http-auth.js';

interface Request {
  method: string;
  url: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /** n8n: v3+ `options.redirect.redirect.{followRedirects, maxRedirects}`, v1–v2 `options.followRedirect`. */
  followRedirects: boolean;
  maxRedirects?: number;
  format: 'autodetect' | 'json' | 'text' | 'file';
  fullResponse: boolean;
  neverError: boolean;
}

const pairs = (list: unknown): Array<[string, string]> =>
  (Array.isArray(list) ? list : []).filter((p) => p && p.name).map((p) => [String(p.name), typeof p.value === 'object' ? JSON.stringify(p.value) : String(p.value ?? '')]);

const jsonish = (v: unknown): Record<string, unknown> => {
  if (v && typeof v === 'object') return v as Record<string, unknown>;
  if (typeof v === 'string' && v.trim()) {
    try {
      return JSON.parse(v);
    } catch {
      throw new NodeOperationError('JSON parameter needs to be valid JSON');
    }
  }
  return {};
};

async function v4(ctx: NodeContext, i: number): Promise<Request> {
  const p = <T = unknown>(path: string, d?: NoInfer<T>): Promise<T> => ctx.param<T>(path, i, d);
  const req: Request = {
    method: String(await p('method', 'GET')).toUpperCase(),
    url: String(await p('url', '')),
    query: [],
    headers: {},
    format: await p('options.response.response.responseFormat', 'autodetect'),
    fullResponse: await p('options.response.response.fullResponse', false),
    neverError: await p('options.response.response.neverError', false),
    timeoutMs: await p<number | undefined>('options.timeout', undefined),
    followRedirects: await p('options.redirect.redirect.followRedirects', true),
    maxRedirects: await p<number | undefined>('options.redirect.redirect.maxRedirects', undefined),
  };
  if (await p('sendQuery', false)) {
    req.query = await p('specifyQuery', 'keypair') === 'json' ? Object.entries(jsonish(await p('jsonQuery', '{}'))).map(([k, v]) => [k, String(v)]) : pairs(await p('queryParameters.parameters', []));
  }
  if (await p('sendHeaders', false)) {
    const hs = await p('specifyHeaders', 'keypair') === 'json' ? Object.entries(jsonish(await p('jsonHeaders', '{}'))).map(([k, v]) => [k, String(v)] as [string, string]) : pairs(await p('headerParameters.parameters', []));
    for (const [k, v] of hs) req.headers[k.toLowerCase()] = v;
  }
  if (await p('sendBody', false)) {
    const type = await p<string>('contentType', 'json');
    if (type === 'raw') {
      req.headers['content-type'] ??= String(await p('rawContentType', 'text/plain'));
      req.body = String(await p('body', ''));
    } else if (type === 'form-urlencoded') {
      req.headers['content-type'] ??= 'application/x-www-form-urlencoded';
      req.body = new URLSearchParams(pairs(await p('bodyParameters.parameters', []))).toString();
    } else if (type === 'json') {
      req.headers['content-type'] ??= 'application/json';
      const body = await p('specifyBody', 'keypair') === 'json' ? jsonish(await p('jsonBody', '{}')) : Object.fromEntries(pairs(await p('bodyParameters.parameters', [])));
      req.body = JSON.stringify(body);
    } else throw new NodeOperationError(`Body content type "${type}" is not supported`);
  }
  return req;
}

async function v1(ctx: NodeContext, i: number): Promise<Request> {
  const p = <T = unknown>(path: string, d?: NoInfer<T>): Promise<T> => ctx.param<T>(path, i, d);
  const asJson = await p('jsonParameters', false);
  const req: Request = {
    method: String(await p('requestMethod', 'GET')).toUpperCase(),
    url: String(await p('url', '')),
    query: asJson ? Object.entries(jsonish(await p('queryParametersJson', '{}'))).map(([k, v]) => [k, String(v)]) : pairs(await p('queryParametersUi.parameter', [])),
    headers: {},
    format: await p('responseFormat', 'json') === 'string' ? 'text' : await p('responseFormat', 'json') === 'file' ? 'file' : 'json',
    fullResponse: await p('options.fullResponse', false),
    neverError: await p('options.ignoreResponseCode', false),
    timeoutMs: await p<number | undefined>('options.timeout', undefined),
    followRedirects: await p('options.followRedirect', true),
  };
  const hs = asJson ? Object.entries(jsonish(await p('headerParametersJson', '{}'))).map(([k, v]) => [k, String(v)] as [string, string]) : pairs(await p('headerParametersUi.parameter', []));
  for (const [k, v] of hs) req.headers[k.toLowerCase()] = v;
  if (!['GET', 'HEAD'].includes(req.method)) {
    const body = asJson ? jsonish(await p('bodyParametersJson', '{}')) : Object.fromEntries(pairs(await p('bodyParametersUi.parameter', [])));
    if (Object.keys(body).length) {
      if (await p('options.bodyContentType', 'json') === 'form-urlencoded') {
        req.headers['content-type'] ??= 'application/x-www-form-urlencoded';
        req.body = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
      } else {
        req.headers['content-type'] ??= 'application/json';
        req.body = JSON.stringify(body);
      }
    }
  }
  return req;
}

async function send(ctx: NodeContext, req: Request): Promise<Array<Record<string, unknown>>> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new NodeOperationError(`Invalid URL: ${req.url}. URL must start with "http" or "https".`);
  }
  for (const [k, v] of req.query) url.searchParams.append(k, v);
  let res;
  try {
    const redirects = { redirect: req.followRedirects ? 'follow' : 'manual', maxRedirects: req.maxRedirects } as const;
    res = await ctx.services.fetch(url.toString(), { method: req.method, headers: req.headers, body: req.body, ...redirects }, req.timeoutMs);
  } catch (err) {
    throw new NodeOperationError((err as Error).message, (err as { cause?: { message?: string } }).cause?.message);
  }
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let body: unknown = text;
  if (req.format === 'json' || (req.format === 'autodetect' && /json/i.test(type))) {
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      if (req.format === 'json') throw new NodeOperationError('Response body is not valid JSON. Change "Response Format" to "Text"');
    }
  }
  if (!req.neverError && (res.status < 200 || res.status >= 300)) {
    const detail = typeof body === 'string' ? body : JSON.stringify(body);
    throw new NodeOperationError(`Request failed with status code ${res.status}`, detail.slice(0, 1000));
  }
  if (req.fullResponse) {
    return [{ body, headers: Object.fromEntries(res.headers), statusCode: res.status, statusMessage: res.statusText }];
  }
  if (Array.isArray(body)) return body.map((b) => (b && typeof b === 'object' && !Array.isArray(b) ? b : { data: b }));
  if (body && typeof body === 'object') return [body as Record<string, unknown>];
  return [{ data: body }];
}

export default {
  types: ['n8n-nodes-base.httpRequest'],
  async execute(ctx) {
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      try {
        const req = await (ctx.typeVersion >= 3 ? v4(ctx, i) : v1(ctx, i));
        await authenticate(ctx, i, req);
        for (const json of await send(ctx, req)) out.push({ json, pairedItem: { item: i } });
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        out.push({ json: { error: (err as Error).message }, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;

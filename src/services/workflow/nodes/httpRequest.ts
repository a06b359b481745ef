// HTTP Request, in the v1–v2 parameter format (requestMethod, jsonParameters, …ParametersUi)
// and the v3–v4 format (method, sendQuery/sendHeaders/sendBody, options.response). Every
// request goes through the service's guarded fetch (SSRF guard, timeout).
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { authenticate } from '../credentials/http-auth.js';
import { paginate, type Answer } from './httpRequest-pagination.js';
import { toBinary, type BinaryData } from './binary-data.js';

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
  /** v3+ `options.response.response.outputPropertyName`: where a text answer goes (default `data`). */
  textField: string;
  fullResponse: boolean;
  neverError: boolean;
  /** v3+: a failed status is worded as n8n words it (STATUS_WORDING). */
  statusWording: boolean;
  /** v3+: a JSON array answer is one item per element; v1–v2 keep the whole array as one item's json. */
  splitArrays: boolean;
}

/** n8n's messages for these statuses (recorded by the oracle: http-4.2-error-<code>); other statuses keep the client's wording. */
const STATUS_WORDING: Record<number, string> = {
  400: 'Bad request - please check your parameters',
  401: 'Authorization failed - please check your credentials',
  403: 'Forbidden - perhaps check your credentials?',
  404: 'The resource you are requesting could not be found',
  429: 'The service is receiving too many requests from you',
  500: 'The service was not able to process your request',
  503: 'Service unavailable - try again later or consider setting this node to retry automatically (in the node settings)',
};

/**
 * Name/value rows as text, as n8n sends them in a query, form or header: a value that is
 * undefined (an expression on a missing field) leaves its row out, null becomes "" (the oracle's
 * http-*-get-query and http-4.2-post-form cases).
 */
const pairs = (list: unknown): Array<[string, string]> =>
  rows(list)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)]);

const rows = (list: unknown): Array<[string, unknown]> =>
  (Array.isArray(list) ? list : []).filter((p) => p && p.name).map((p) => [String(p.name), p.value]);

/** v3+ JSON body from name/value rows: values keep their type (31 stays a number, null stays null); undefined ones are left out. */
const typedObject = (list: unknown): Record<string, unknown> =>
  Object.fromEntries(rows(list).filter(([, v]) => v !== undefined));

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
    textField: String((await p('options.response.response.outputPropertyName', 'data')) || 'data'),
    statusWording: true,
    splitArrays: true,
    timeoutMs: await p<number | undefined>('options.timeout', undefined),
    followRedirects: await p('options.redirect.redirect.followRedirects', true),
    maxRedirects: await p<number | undefined>('options.redirect.redirect.maxRedirects', undefined),
  };
  if (await p('sendQuery', false)) {
    req.query =
      (await p('specifyQuery', 'keypair')) === 'json'
        ? Object.entries(jsonish(await p('jsonQuery', '{}'))).map(([k, v]) => [k, String(v)])
        : pairs(await p('queryParameters.parameters', []));
  }
  if (await p('sendHeaders', false)) {
    const hs =
      (await p('specifyHeaders', 'keypair')) === 'json'
        ? Object.entries(jsonish(await p('jsonHeaders', '{}'))).map(([k, v]) => [k, String(v)] as [string, string])
        : pairs(await p('headerParameters.parameters', []));
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
      const body =
        (await p('specifyBody', 'keypair')) === 'json'
          ? jsonish(await p('jsonBody', '{}'))
          : typedObject(await p('bodyParameters.parameters', []));
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
    query: asJson
      ? Object.entries(jsonish(await p('queryParametersJson', '{}'))).map(([k, v]) => [k, String(v)])
      : pairs(await p('queryParametersUi.parameter', [])),
    headers: {},
    format:
      (await p('responseFormat', 'json')) === 'string'
        ? 'text'
        : (await p('responseFormat', 'json')) === 'file'
          ? 'file'
          : 'json',
    fullResponse: await p('options.fullResponse', false),
    neverError: await p('options.ignoreResponseCode', false),
    textField: String((await p('dataPropertyName', 'data')) || 'data'),
    statusWording: false,
    splitArrays: false,
    timeoutMs: await p<number | undefined>('options.timeout', undefined),
    followRedirects: await p('options.followRedirect', true),
  };
  const hs = asJson
    ? Object.entries(jsonish(await p('headerParametersJson', '{}'))).map(([k, v]) => [k, String(v)] as [string, string])
    : pairs(await p('headerParametersUi.parameter', []));
  for (const [k, v] of hs) req.headers[k.toLowerCase()] = v;
  if (!['GET', 'HEAD'].includes(req.method)) {
    const body = asJson
      ? jsonish(await p('bodyParametersJson', '{}'))
      : Object.fromEntries(pairs(await p('bodyParametersUi.parameter', [])));
    if (Object.keys(body).length) {
      if ((await p('options.bodyContentType', 'json')) === 'form-urlencoded') {
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

/** An answer outside 2xx (without `neverError`). */
class HttpStatusError extends NodeOperationError {
  constructor(
    readonly status: number,
    readonly text: string,
    detail: string,
    wording?: string,
  ) {
    super(wording ?? `Request failed with status code ${status}`, detail);
  }

  /**
   * What v3+ puts in the item when the node continues on this error: n8n passes on its HTTP
   * client's error object (message "<status> - <body as a JSON string>", the client's name and
   * code, the status). The stack is the client's and differs by machine; ours names this node.
   */
  asItem(): Record<string, unknown> {
    return {
      message: `${this.status} - ${JSON.stringify(this.text)}`,
      name: 'AxiosError',
      stack: `AxiosError: Request failed with status code ${this.status}\n    at HTTP Request (hamlet)`,
      code: this.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
      status: this.status,
    };
  }
}

async function exchange(ctx: NodeContext, req: Request): Promise<Answer> {
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
    res = await ctx.services.fetch(
      url.toString(),
      { method: req.method, headers: req.headers, body: req.body, ...redirects },
      req.timeoutMs,
    );
  } catch (err) {
    throw new NodeOperationError((err as Error).message, (err as { cause?: { message?: string } }).cause?.message);
  }
  const type = res.headers.get('content-type') ?? '';
  if (req.format === 'file') {
    const bytes = Buffer.from(await res.arrayBuffer());
    return {
      statusCode: res.status,
      statusMessage: res.statusText,
      headers: Object.fromEntries(res.headers),
      text: '',
      body: undefined,
      bytes,
    };
  }
  const text = await res.text();
  let body: unknown = text;
  if (req.format === 'json' || (req.format === 'autodetect' && /json/i.test(type))) {
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      if (req.format === 'json')
        throw new NodeOperationError('Response body is not valid JSON. Change "Response Format" to "Text"');
    }
  }
  return {
    statusCode: res.status,
    statusMessage: res.statusText,
    headers: Object.fromEntries(res.headers),
    text,
    body,
  };
}

/** Fails on an answer outside 2xx, unless the node never errors. */
function checkStatus(req: Request, answer: Answer): void {
  if (req.neverError || (answer.statusCode >= 200 && answer.statusCode < 300)) return;
  const detail = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  throw new HttpStatusError(
    answer.statusCode,
    answer.text,
    detail.slice(0, 1000),
    req.statusWording ? STATUS_WORDING[answer.statusCode] : undefined,
  );
}

/**
 * The items' json of an answer. As in n8n (oracle: http-*-response-list-mixed), an element of a
 * JSON array answer becomes an item's json whatever it is (a number, a string, a list, an object
 * with a `json` key), so items here may carry json that is not an object.
 */
function itemsOf(req: Request, answer: Answer): unknown[] {
  const { body } = answer;
  if (req.fullResponse)
    return [{ body, headers: answer.headers, statusCode: answer.statusCode, statusMessage: answer.statusMessage }];
  if (Array.isArray(body)) return req.splitArrays ? body : [body];
  if (body && typeof body === 'object') return [body];
  return [{ [req.textField]: body }];
}

/**
 * A file answer as n8n gives it: the input item's json (or, with the full response, the answer
 * without its body) and its files, plus the answer's bytes under the output property, typed by
 * the answer's Content-Type and named as its Content-Disposition or URL path says.
 */
function fileItem(input: Item, req: Request, answer: Answer, i: number): Item {
  const json = req.fullResponse
    ? { headers: answer.headers, statusCode: answer.statusCode, statusMessage: answer.statusMessage }
    : input.json;
  const disposition = /filename\*?=(?:UTF-8'[^']*')?"?([^";]+)"?/i.exec(
    answer.headers['content-disposition'] ?? '',
  )?.[1];
  const fromPath = (() => {
    try {
      return new URL(req.url).pathname.split('/').pop() || undefined;
    } catch {
      return undefined;
    }
  })();
  // n8n types the file by the media type alone (no charset) and keeps the URL as its "directory".
  const mimeType = answer.headers['content-type']?.split(';', 1)[0].trim() || undefined;
  const file: BinaryData = {
    ...toBinary(answer.bytes!, { fileName: disposition ?? fromPath, mimeType }),
    directory: req.url,
  };
  return {
    json,
    binary: { ...(input.binary ?? {}), [req.textField]: file as unknown as Record<string, unknown> },
    pairedItem: { item: i },
  };
}

/** The node's answers for item `i`: one, or every page with v3+'s pagination. */
async function answers(ctx: NodeContext, i: number, req: Request): Promise<Answer[]> {
  if (ctx.typeVersion >= 3) {
    const pages = await paginate(
      ctx,
      i,
      req,
      (r) => exchange(ctx, r),
      (r, a) => checkStatus(r, a),
    );
    if (pages) return pages;
  }
  const answer = await exchange(ctx, req);
  checkStatus(req, answer);
  return [answer];
}

export default {
  types: ['n8n-nodes-base.httpRequest'],
  async execute(ctx) {
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      try {
        const req = await (ctx.typeVersion >= 3 ? v4(ctx, i) : v1(ctx, i));
        await authenticate(ctx, i, req);
        for (const answer of await answers(ctx, i, req)) {
          if (answer.bytes) {
            out.push(fileItem(ctx.items[i], req, answer, i));
            continue;
          }
          for (const json of itemsOf(req, answer)) out.push({ json: json as Item['json'], pairedItem: { item: i } });
        }
      } catch (err) {
        if (!ctx.continueOnFail) throw err;
        const error = err instanceof HttpStatusError && ctx.typeVersion >= 3 ? err.asItem() : (err as Error).message;
        out.push({ json: { error }, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;

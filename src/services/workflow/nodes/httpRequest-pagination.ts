// HTTP Request v3+ pagination (options.pagination.pagination): the node sends the request again
// and again, each time with the parameters or the URL its expressions give for the answer before
// (`$response`, `$pageCount`, `$request`), until the "complete when" rule says stop, and outputs
// every page. Behaviour recorded with the oracle (http-4.2-paginate-*):
// - the first request goes out as configured: the expressions see an empty `$response`
//   ({body: {}, headers: {}, statusCode: 0}) and `$pageCount` 0; an empty result keeps the URL;
// - `$request` is the request as configured, not the last one sent;
// - an answer with a "complete" status code is one of the pages (no error);
// - the same answer three times after the first fails the node (n8n's words say 5x).
import { NodeOperationError, type NodeContext } from '../engine/node-type.js';
import type { ExpressionData } from '../expressions/api.js';

/** One answer, read and parsed by the node's response format. */
export interface Answer {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string>;
  text: string;
  body: unknown;
  /** The body's bytes, when the node asked for a file. */
  bytes?: Buffer;
}

/** The parts of a request pagination reads and changes. */
export interface PagedRequest {
  method: string;
  url: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: string;
}

interface Pagination {
  paginationMode?: 'off' | 'updateAParameterInEachRequest' | 'responseContainsNextURL';
  nextURL?: string;
  parameters?: { parameters?: Array<{ type?: 'qs' | 'headers' | 'body'; name?: string; value?: unknown }> };
  paginationCompleteWhen?: 'responseIsEmpty' | 'receiveSpecificStatusCodes' | 'other';
  statusCodesWhenComplete?: string;
  completeExpression?: string;
  limitPagesFetched?: boolean;
  maxRequests?: number;
  requestInterval?: number;
}

interface Keys {
  $response: { body: unknown; headers: Record<string, string>; statusCode: number };
  $pageCount: number;
  $request: unknown;
}

const IDENTICAL_ANSWERS_ALLOWED = 2;

const text = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The request as `$request` shows it: n8n's request options (qs and headers as objects). */
function requestView(req: PagedRequest): Record<string, unknown> {
  let body: unknown = req.body;
  try {
    body = req.body === undefined ? undefined : JSON.parse(req.body);
  } catch {
    /* a form or text body stays text */
  }
  return { method: req.method, url: req.url, qs: Object.fromEntries(req.query), headers: { ...req.headers }, body };
}

/** Sets one body field, in the body's own format (JSON object or form); a request without a body gets a JSON one. */
function withBodyField<R extends PagedRequest>(req: R, name: string, value: unknown): R {
  const type = req.headers['content-type'] ?? '';
  if (/x-www-form-urlencoded/i.test(type)) {
    const form = new URLSearchParams(req.body ?? '');
    form.set(name, text(value));
    return { ...req, body: form.toString() };
  }
  let object: Record<string, unknown> = {};
  try {
    const parsed = req.body ? JSON.parse(req.body) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) object = parsed;
  } catch {
    throw new NodeOperationError('Pagination can only set a body parameter in a JSON or form body');
  }
  return {
    ...req,
    headers: { 'content-type': 'application/json', ...req.headers },
    body: JSON.stringify({ ...object, [name]: value }),
  };
}

async function resolve(ctx: NodeContext, i: number, value: unknown, keys: Keys): Promise<unknown> {
  if (!ctx.expressions.isExpression(value)) return value;
  // The item's expression data (a class with getters) with the pagination keys on top.
  const data = Object.assign(Object.create(ctx.expressionData(i)) as ExpressionData, { additionalKeys: keys });
  return ctx.expressions.resolve(value, data, ctx.signal);
}

/** The request for the next page: the configured one with the resolved parameters or URL. */
async function nextRequest<R extends PagedRequest>(
  ctx: NodeContext,
  i: number,
  p: Pagination,
  req: R,
  keys: Keys,
): Promise<R> {
  if (p.paginationMode === 'responseContainsNextURL') {
    const url = await resolve(ctx, i, p.nextURL ?? '', keys);
    return url === undefined || url === null || url === '' ? req : { ...req, url: text(url) };
  }
  let next: R = { ...req, query: [...req.query], headers: { ...req.headers } };
  for (const param of p.parameters?.parameters ?? []) {
    const name = String(param.name ?? '');
    if (!name)
      throw new NodeOperationError(
        "At least one entry with 'Name' and 'Value' filled must be included in 'Parameters' to use 'Update a Parameter in Each Request' mode ",
      );
    const value = await resolve(ctx, i, param.value ?? '', keys);
    if (param.type === 'headers') next.headers[name.toLowerCase()] = text(value);
    else if (param.type === 'body') next = withBodyField(next, name, value);
    else next.query = [...next.query.filter(([k]) => k !== name), [name, text(value)]];
  }
  return next;
}

/** Whether another page is wanted after the answer in `keys.$response`. */
async function wantsMore(ctx: NodeContext, i: number, p: Pagination, keys: Keys): Promise<boolean> {
  const { body, statusCode } = keys.$response;
  switch (p.paginationCompleteWhen ?? 'responseIsEmpty') {
    case 'responseIsEmpty':
      return Array.isArray(body) ? body.length > 0 : !!body;
    case 'receiveSpecificStatusCodes':
      return !completeStatusCodes(p).includes(statusCode);
    default: {
      const expression = String(p.completeExpression ?? '').trim();
      if (!expression.startsWith('=')) throw new NodeOperationError('Invalid or empty Complete Expression');
      return !(await resolve(ctx, i, expression, keys));
    }
  }
}

const completeStatusCodes = (p: Pagination): number[] =>
  String(p.statusCodesWhenComplete ?? '')
    .split(',')
    .map((c) => parseInt(c.trim(), 10));

/**
 * Every page's answer for item `i`, or undefined when the node does not paginate. `checkStatus`
 * fails the node on an answer outside 2xx (after the rules had their say: a "complete" status
 * code is a page).
 */
export async function paginate<R extends PagedRequest>(
  ctx: NodeContext,
  i: number,
  req: R,
  send: (req: R) => Promise<Answer>,
  checkStatus: (req: R, answer: Answer) => void,
): Promise<Answer[] | undefined> {
  const p = ctx.raw<Pagination | undefined>('options.pagination.pagination', undefined);
  if (!p || !p.paginationMode || p.paginationMode === 'off') return undefined;
  const keys: Keys = { $response: { body: {}, headers: {}, statusCode: 0 }, $pageCount: 0, $request: requestView(req) };
  const max = p.limitPagesFetched ? Number(p.maxRequests ?? 100) : Infinity;
  const pages: Answer[] = [];
  let previous: string | undefined;
  let identical = 0;
  for (;;) {
    const answer = await send(await nextRequest(ctx, i, p, req, keys));
    identical = previous === answer.text ? identical + 1 : 0;
    if (identical > IDENTICAL_ANSWERS_ALLOWED) {
      throw new NodeOperationError(
        'The returned response was identical 5x, so requests got stopped',
        'Check if "Pagination Completed When" has been configured correctly.',
      );
    }
    previous = answer.text;
    pages.push(answer);
    keys.$response = { body: answer.body, headers: answer.headers, statusCode: answer.statusCode };
    keys.$pageCount++;
    const more = keys.$pageCount < max && (await wantsMore(ctx, i, p, keys));
    const completeCode =
      p.paginationCompleteWhen === 'receiveSpecificStatusCodes' && completeStatusCodes(p).includes(answer.statusCode);
    if (!completeCode) checkStatus(req, answer);
    if (!more) return pages;
    if (p.requestInterval) await new Promise((done) => setTimeout(done, Number(p.requestInterval)));
  }
}

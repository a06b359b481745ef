// What `POST /workflows/{id}/execute` starts a run with. Two client shapes carry the input:
// the contract's `{"data": {…}}` (the json of one item) and `{"inputData": …}` (an object, or
// an array of items as n8n-minded clients send it). Any other key would be a request this
// service cannot honour (n8n's internal run API has `runData`, `startNodes`, `destinationNode`
// …), so it is refused with a 400 naming it rather than silently run without it.
import { badRequest } from '../../../platform/errors.js';
import type { Item } from '../expressions/api.js';
import { requireObjectBody } from './common.js';

const KNOWN = ['data', 'inputData'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One element of `inputData`: an n8n item (`{json, binary?}`) as is, or a plain object as its json. */
function toItem(value: unknown, where: string): Item {
  if (!isObject(value)) throw badRequest(`${where} must be object`);
  const keys = Object.keys(value);
  const looksLikeItem = isObject(value.json) && keys.every((k) => k === 'json' || k === 'binary' || k === 'pairedItem');
  if (!looksLikeItem) return { json: value };
  if (value.binary !== undefined && !isObject(value.binary)) throw badRequest(`${where}/binary must be object`);
  return {
    json: value.json as Record<string, unknown>,
    ...(value.binary ? { binary: value.binary } : {}),
  };
}

/** The start items of a manual run (without the start node's own shaping), from the request body. */
export function executeInput(rawBody: unknown): Item[] {
  if (rawBody === undefined || rawBody === null || rawBody === '') return [{ json: {} }];
  const body = requireObjectBody(rawBody);
  const unknown = Object.keys(body).filter((k) => !KNOWN.includes(k));
  if (unknown.length)
    throw badRequest(
      `request/body/${unknown[0]} is not supported here: the run input goes in 'data' (one item's json) or 'inputData' (an object or an array of items)`,
    );
  if (body.data !== undefined && body.inputData !== undefined)
    throw badRequest("request/body must have only one of 'data' and 'inputData'");
  if (body.inputData !== undefined) {
    const input = body.inputData;
    if (Array.isArray(input)) {
      if (!input.length) throw badRequest('request/body/inputData must NOT have fewer than 1 items');
      return input.map((v, i) => toItem(v, `request/body/inputData/${i}`));
    }
    return [toItem(input, 'request/body/inputData')];
  }
  const data = body.data === undefined ? {} : body.data;
  if (!isObject(data)) throw badRequest('request/body/data must be object');
  return [{ json: data }];
}

// Asking an outside user simulator (a rule's `simulator` or `reply_from`) over HTTP. The URL is
// whatever a scenario or task file says, so the request is guarded like a webhook's: no
// internal address unless the operator set HAMLET_ALLOW_INTERNAL_REQUESTS (platform/outbound.ts,
// every redirect hop checked), a time limit on the whole exchange, body included, and an answer
// read only up to a size, so a slow or flooding simulator costs a bounded wait and memory and
// ends as one sentence that says what went wrong.
import { outboundFetch } from '../../platform/outbound.js';

/** The most of a simulator's answer that is read. */
const SIMULATOR_MAX_BYTES = 64 * 1024;
const SIMULATOR_DEFAULT_TIMEOUT_MS = 10_000;

export class SimulatorError extends Error {}

export interface SimulatorAnswer {
  status: number;
  contentType: string;
  text: string;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Reads a body up to `max` bytes; more throws, and the rest is never read. */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<string | undefined> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {}); // nothing more is wanted from it
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isTimeout = (err: unknown): boolean => {
  const name = (err as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError';
};

/**
 * POSTs `payload` as JSON to a simulator and answers its reply (any 2xx). Throws a
 * SimulatorError naming the URL: blocked address, no answer in time, too long, a refusal.
 */
export async function askSimulator(
  url: string,
  payload: unknown,
  opts: { allowInternal: boolean; timeoutMs?: number; maxBytes?: number },
): Promise<SimulatorAnswer> {
  const timeoutMs = opts.timeoutMs ?? SIMULATOR_DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? SIMULATOR_MAX_BYTES;
  const at = `the simulator at ${url}`;
  // One signal for the request and the body: a simulator that answers its headers at once and
  // then trickles is held to the same limit.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await outboundFetch(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Hamlet-People/1.0' },
        body: JSON.stringify(payload),
        signal,
        maxRedirects: 3,
      },
      { allowInternal: opts.allowInternal, timeoutMs },
    );
    const text = await readCapped(res.body as ReadableStream<Uint8Array> | null, maxBytes);
    if (text === undefined) throw new SimulatorError(`${at} answered more than ${maxBytes / 1024} KiB`);
    if (res.status < 200 || res.status >= 300) throw new SimulatorError(`${at} answered ${res.status}`);
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text };
  } catch (err) {
    if (err instanceof SimulatorError) throw err;
    if (signal.aborted || isTimeout(err)) throw new SimulatorError(`${at} did not answer within ${seconds(timeoutMs)}`);
    const e = err as Error & { code?: string; cause?: { message?: string } };
    throw new SimulatorError(`${at}: ${e.code === 'EBLOCKED' ? e.message : (e.cause?.message ?? e.message)}`);
  }
}

/**
 * What a person says, from a `reply_from` simulator's answer: the body as text, or, when it is
 * JSON, its `reply` (or the JSON string itself). Empty: the person says nothing.
 */
export function replyText(answer: SimulatorAnswer): string {
  if (/json/i.test(answer.contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text || 'null');
    } catch {
      throw new SimulatorError('the simulator answered JSON that does not parse');
    }
    if (parsed === null) return '';
    if (typeof parsed === 'string') return parsed.trim();
    const reply = (parsed as { reply?: unknown }).reply;
    if (typeof parsed === 'object' && (reply === undefined || typeof reply === 'string')) return (reply ?? '').trim();
    throw new SimulatorError('the simulator answered JSON without a `reply` text');
  }
  return answer.text.trim();
}

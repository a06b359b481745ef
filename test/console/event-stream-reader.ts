// Reads a console event stream (text/event-stream) in a test: opens it with the session cookie,
// collects what arrives, and waits until a string or pattern has arrived.
import { expect } from 'vitest';

export interface StreamReader {
  /** Everything received so far. */
  readonly text: string;
  until(needle: string | RegExp): Promise<void>;
  close(): void;
}

export async function readEventStream(url: string, cookie: string): Promise<StreamReader> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie }, signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let got = '';
  const has = (needle: string | RegExp) => (typeof needle === 'string' ? got.includes(needle) : needle.test(got));
  return {
    get text() {
      return got;
    },
    async until(needle) {
      while (!has(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        got += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}

// The worker thread that reads PDFs (pdf-text.ts starts it, bounds its heap and stack, and
// terminates it on a timeout or when the process's memory grows past the budget). pdf.js is
// imported here when the worker starts (on the first PDF), never in the server's main thread and never at start.
// Confinement: the document comes as bytes (no `url`), eval is off (PostScript functions and
// fonts are interpreted, not compiled), font faces are not loaded, no standard-font, CMap or wasm
// folder is given (so pdf.js fetches nothing; n8n 2.8.4 gives none either, and its text is the
// same for it), XFA is off.
import { parentPort } from 'node:worker_threads';

export interface PdfTask {
  id: number;
  data: Uint8Array;
  password?: string;
  /** n8n's option: 0 reads no page, a smaller positive count reads that many, else all. */
  maxPages?: number;
  joinPages: boolean;
  /** The most characters of text (all pages) a task may produce. */
  maxTextChars: number;
}

export interface PdfResult {
  numpages: number;
  numrender: number;
  info: Record<string, unknown> | null;
  metadata?: Record<string, unknown>;
  text: string | string[];
  version: string;
}

export type PdfAnswer = { id: number; result: PdfResult } | { id: number; error: { name: string; message: string } };

// Loaded before the worker says it is ready, so that a document's time limit counts reading only.
// Its "worker" part too: pdf.js runs it in this thread (it sets globalThis.pdfjsWorker).
const { getDocument, version } = await import('pdfjs-dist/legacy/build/pdf.mjs');
await import('pdfjs-dist/legacy/build/pdf.worker.mjs');

class TextLimitError extends Error {
  override name = 'limit';
}

interface TextPiece {
  str?: string;
  transform?: number[];
}

/**
 * One page's text as n8n 2.8.4 joins pdf.js's pieces: a piece on the same baseline as the one
 * before is appended as is, one on another baseline starts a new line. A previous baseline of 0
 * (or none) counts as "same line", as n8n's test of it does.
 */
function pageText(items: TextPiece[]): string {
  let text = '';
  let lastY: number | undefined;
  for (const item of items) {
    if (typeof item.str !== 'string') continue; // marked-content markers carry no text
    const y = item.transform?.[5];
    text += lastY && lastY !== y ? `\n${item.str}` : item.str;
    lastY = y;
  }
  return text;
}

/**
 * A page's text pieces, as pdf.js's getTextContent collects them, read as a stream so that a page
 * whose text outgrows the budget is stopped while pdf.js still reads it.
 */
async function textPieces(
  page: { streamTextContent(): ReadableStream<{ items: TextPiece[] }> },
  budget: { chars: number; max: number },
): Promise<TextPiece[]> {
  const reader = page.streamTextContent().getReader();
  const items: TextPiece[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return items;
    for (const item of value.items) {
      budget.chars -= typeof item.str === 'string' ? item.str.length + 1 : 0;
      items.push(item);
    }
    if (budget.chars < 0) {
      reader.cancel().catch(() => undefined); // not waited for: pdf.js acknowledges only after the page
      throw new TextLimitError(`The PDF's text is longer than ${budget.max} characters, the most this server reads`);
    }
  }
}

async function extract(task: PdfTask): Promise<PdfResult> {
  const loading = getDocument({
    data: task.data,
    password: task.password,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    enableXfa: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let abandoned = false;
  try {
    const doc = await loading.promise;
    const { info, metadata } = await doc.getMetadata().catch(() => ({ info: null, metadata: null }));
    const pages: string[] = [];
    const max = task.maxPages;
    if (max !== 0) {
      const count = max && max < doc.numPages ? max : doc.numPages;
      const budget = { chars: task.maxTextChars, max: task.maxTextChars };
      for (let i = 1; i <= count; i++) {
        const page = await doc.getPage(i);
        pages.push(pageText(await textPieces(page, budget)));
        page.cleanup();
      }
    }
    // n8n's key order; `metadata` is left out when the file has no XMP packet.
    const result: PdfResult = {
      numpages: doc.numPages,
      numrender: doc.numPages,
      info: (info as Record<string, unknown> | null) ?? null,
      ...(metadata ? { metadata: Object.fromEntries([...(metadata as unknown as Iterable<[string, unknown]>)]) } : {}),
      text: task.joinPages ? pages.join('\n\n') : pages,
      version,
    };
    return result;
  } catch (e) {
    // pdf.js goes on reading a page whose text stream was cancelled: the main thread ends this
    // worker after a limit, so it is not waited for.
    if (e instanceof TextLimitError) abandoned = true;
    throw e;
  } finally {
    if (!abandoned) await loading.destroy();
  }
}

parentPort?.on('message', (task: PdfTask) => {
  extract(task).then(
    (result) => parentPort?.postMessage({ id: task.id, result } satisfies PdfAnswer),
    (e: unknown) => {
      const error = e instanceof Error || (e && typeof e === 'object') ? (e as Error) : new Error(String(e));
      parentPort?.postMessage({
        id: task.id,
        error: { name: String(error.name ?? 'Error'), message: String(error.message ?? error) },
      } satisfies PdfAnswer);
    },
  );
});
parentPort?.postMessage({ ready: true });

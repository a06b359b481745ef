// Parsing of n8n parameter templates: "=Hello {{ $json.name }}!".
//
// n8n splits templates naively: the first `}}` after a `{{` closes the segment, whatever JS
// is inside (so `{{ {a:{b:1}} }}` is broken in n8n too), and `\}}` escapes a closing pair.
// We split the same way so that every template n8n accepts splits identically here.

export type Chunk = { kind: 'text'; text: string } | { kind: 'code'; code: string };

export interface Template {
  /** The template text without the leading '='. */
  source: string;
  chunks: Chunk[];
  /** True when the whole template is one `{{ }}` segment: the result keeps its type. */
  single: boolean;
}

export function splitTemplate(source: string): Chunk[] {
  const chunks: Chunk[] = [];
  let index = 0;
  while (index < source.length) {
    const open = source.indexOf('{{', index);
    if (open === -1) {
      chunks.push({ kind: 'text', text: source.slice(index) });
      break;
    }
    if (open > index) chunks.push({ kind: 'text', text: source.slice(index, open) });
    let cursor = open + 2;
    let code = '';
    let closed = false;
    while (cursor < source.length) {
      const close = source.indexOf('}}', cursor);
      if (close === -1) break;
      if (close > 0 && source[close - 1] === '\\') {
        // An escaped `\}}` belongs to the code (n8n keeps the backslash too).
        code += source.slice(cursor, close + 2);
        cursor = close + 2;
        continue;
      }
      code += source.slice(cursor, close);
      cursor = close + 2;
      closed = true;
      break;
    }
    if (!closed) {
      // An unterminated `{{` is plain text, as in n8n.
      chunks.push({ kind: 'text', text: source.slice(open) });
      break;
    }
    chunks.push({ kind: 'code', code });
    index = cursor;
  }
  return mergeText(chunks);
}

function mergeText(chunks: Chunk[]): Chunk[] {
  const out: Chunk[] = [];
  for (const chunk of chunks) {
    const last = out[out.length - 1];
    if (chunk.kind === 'text' && last?.kind === 'text') last.text += chunk.text;
    else if (!(chunk.kind === 'text' && chunk.text === '')) out.push(chunk);
  }
  return out;
}

/** A small LRU of parsed templates, keyed by the template text (huge ones are not kept). */
export class TemplateCache {
  private readonly entries = new Map<string, Template>();
  constructor(
    private readonly capacity = 2000,
    private readonly maxLength = 64 * 1024,
  ) {}

  get(source: string): Template {
    let template = this.entries.get(source);
    if (template) {
      // Refresh recency: Map iteration order is insertion order.
      this.entries.delete(source);
      this.entries.set(source, template);
      return template;
    }
    const chunks = splitTemplate(source);
    template = { source, chunks, single: chunks.length === 1 && chunks[0].kind === 'code' };
    if (source.length > this.maxLength) return template;
    this.entries.set(source, template);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return template;
  }
}

/**
 * Turns one segment's value into text the way n8n's interpolation does (the sandbox's toText
 * does the same there): null and undefined vanish, everything else goes through String() — so
 * `{{ $json.links }} ` gives "a,b " (observed in the corpus) and an object gives
 * "[object Object]" (n8n issue #15828). Nodes that embed objects as JSON text, like Set's raw
 * JSON mode, resolve each `{{ }}` on its own and stringify the raw value themselves.
 */
export function segmentToText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

// HTML. extractHtmlContent: CSS selectors over an HTML string in a JSON field; one output item
// per input item holding the extracted keys. convertToHtmlTable: all items as one table
// (html-table.ts). Text, as n8n 2.8.4 gives it (observed with the oracle, nt-html-*):
// - v1 and v1.1 (and the legacy HTML Extract node): the elements' text nodes joined, as
//   cheerio's .text() (no script or style text, <br> adds nothing), every match joined; skip
//   selectors do nothing;
// - v1.2: each element's content rendered by html-to-text (headings inside it upper-cased,
//   links and images with their URL, lists bulleted), skip selectors left out, only the first
//   match unless `returnArray`.
// Text of no match is "" in HTML Extract and HTML 1.2, absent in HTML 1 and 1.1, as HTML is
// (cheerio's `|| undefined`).
// Line ends are \n as an HTML parser reads them; trim and clean-up apply only when set.
import type { HTMLElement, Node } from 'node-html-parser';
import { htmlParser, htmlToText } from '../../../platform/optional-modules.js';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { lodashGet } from './util.js';
import { htmlTable } from './html-table.js';

interface Extraction {
  key: string;
  cssSelector: string;
  returnValue?: 'text' | 'html' | 'attribute' | 'value';
  attribute?: string;
  skipSelectors?: string;
  returnArray?: boolean;
}

const newlines = (v: string) => v.replace(/\r\n?/g, '\n');

/** cheerio's .text(): the text nodes below `node`, without script and style contents. */
function elementText(node: Node): string {
  const kind = node.nodeType as number;
  if (kind === 3) return node.text;
  if (kind !== 1) return '';
  const tag = (node as HTMLElement).rawTagName?.toLowerCase();
  if (tag === 'script' || tag === 'style') return '';
  return node.childNodes.map(elementText).join('');
}

/**
 * For <body>: the white space written after </body> (and </html>), which an HTML5 parser puts
 * at the end of the body (observed: cheerio's body HTML ends with it).
 */
function trailingBodySpace(el: HTMLElement): string {
  if (el.rawTagName?.toLowerCase() !== 'body') return '';
  let out = '';
  for (let node: Node | null = el; node?.parentNode; node = node.parentNode) {
    const siblings = node.parentNode.childNodes;
    for (const s of siblings.slice(siblings.indexOf(node) + 1))
      if ((s.nodeType as number) === 3 && !s.text.trim()) out += s.text;
  }
  return out;
}

function valueOf(el: HTMLElement, e: Extraction, rendered: boolean): string | Record<string, string> | undefined {
  switch (e.returnValue ?? 'text') {
    case 'attribute':
      // No attribute named: all of them (observed).
      return e.attribute ? el.getAttribute(e.attribute) : { ...el.attributes };
    case 'html':
      // As cheerio writes it back: void elements without a closing slash (<img …>, <br>).
      return newlines(el.innerHTML + trailingBodySpace(el)).replace(
        /<(area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr)(\b[^>]*?)\s*\/?>/gi,
        '<$1$2>',
      );
    case 'value':
      return el.getAttribute('value');
    default: {
      if (!rendered) return newlines(elementText(el));
      const skip = (e.skipSelectors ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      return htmlToText().convert(newlines(el.innerHTML), {
        selectors: skip.map((selector) => ({ selector, format: 'skip' })),
      });
    }
  }
}

function tidy<T>(v: T, trim: boolean, clean: boolean): T {
  if (typeof v !== 'string') return v;
  let s: string = v;
  if (clean)
    s = s
      .replace(/^\s+|\s+$/g, '')
      .replace(/(\r\n|\n|\r)/gm, '')
      .replace(/\s+/g, ' ');
  if (trim) s = s.trim();
  return s as T;
}

/**
 * The property holding the HTML: HTML v1 reads the key as written (or inside [''] / [""]), the
 * later versions and HTML Extract as lodash's get reads a path.
 */
function sourceOf(json: Record<string, unknown>, property: string, keyOnly: boolean): unknown {
  if (!keyOnly) return lodashGet(json, property);
  if (json[property] !== undefined) return json[property];
  const quoted = /^\[(['"])(.*)\1\]$/.exec(property);
  return quoted ? json[quoted[2]] : undefined;
}

/**
 * One document as cheerio loads it: text is parsed; an object (or a list of objects) is taken
 * for parsed nodes and holds nothing to select; null fails, and so do numbers, booleans and a
 * list holding text or numbers (cheerio's own errors).
 */
function loadDocument(doc: unknown, item: number): HTMLElement | undefined {
  if (typeof doc === 'string') return htmlParser().parse(doc);
  const refuse = (v: unknown): never => {
    if (v === null || v === undefined)
      throw new NodeOperationError("Cannot read properties of null (reading 'parent')", undefined, item);
    throw new NodeOperationError(`Cannot create property 'prev' on ${typeof v} '${String(v)}'`, undefined, item);
  };
  if (doc === null || doc === undefined)
    throw new NodeOperationError('cheerio.load() expects a string', undefined, item);
  if (Array.isArray(doc)) {
    for (const node of doc) if (node === null || typeof node !== 'object') refuse(node);
    return undefined;
  }
  if (typeof doc !== 'object') refuse(doc);
  return undefined;
}

/**
 * What cheerio's readings give for nothing: HTML of no match (or empty) is absent, and so is
 * text in HTML 1 and 1.1 (HTML Extract keeps '' text; 1.2 renders '').
 */
function orAbsent<T>(v: T, e: Extraction, extractNode: boolean, rendered: boolean): T | undefined {
  const kind = e.returnValue ?? 'text';
  if (v === '' && (kind === 'html' || (kind === 'text' && !extractNode && !rendered))) return undefined;
  return v;
}

export default {
  types: ['n8n-nodes-base.html', 'n8n-nodes-base.htmlExtract'],
  async execute(ctx) {
    const operation = ctx.raw<string>(
      'operation',
      ctx.node.type.endsWith('htmlExtract') ? 'extractHtmlContent' : 'generateHtmlTemplate',
    );
    if (operation === 'convertToHtmlTable')
      return [[{ json: { table: await htmlTable(ctx) }, pairedItem: ctx.items.map((_, item) => ({ item })) }]];
    if (operation !== 'extractHtmlContent')
      throw new NodeOperationError(`The operation "${operation}" of the HTML node is not supported`);
    const out: Item[] = [];
    const extractNode = ctx.node.type === 'n8n-nodes-base.htmlExtract';
    for (let i = 0; i < ctx.items.length; i++) {
      const property = await ctx.param<string>('dataPropertyName', i, 'data');
      let source: unknown;
      if (ctx.raw<string>('sourceData', 'json') === 'binary') {
        // The HTML is the item's binary file of that name (n8n's words when there is none, observed).
        const file = (ctx.items[i].binary as Record<string, { data?: string }> | undefined)?.[property];
        if (!file)
          throw new NodeOperationError(
            `This operation expects the node's input data to contain a binary file '${property}', but none was found [item ${i}]`,
            undefined,
            i,
          );
        source = Buffer.from(String(file.data ?? ''), 'base64').toString('utf8');
      } else
        source = sourceOf(
          ctx.items[i].json,
          property,
          ctx.node.type === 'n8n-nodes-base.html' && ctx.typeVersion < 1.1,
        );
      if (source === undefined) throw new NodeOperationError(`No property named "${property}" exists!`, undefined, i);
      // Trimming is on unless turned off in the legacy HTML Extract node, off unless turned on in HTML (observed).
      const trim = await ctx.param<boolean>('options.trimValues', i, extractNode);
      const clean = await ctx.param<boolean>('options.cleanUpText', i, false);
      const rendered = !extractNode && ctx.typeVersion >= 1.2;
      // HTML after 1 has a default extraction (one, of text, under the key ''); HTML 1 and HTML
      // Extract fail without one.
      const extractions = await ctx.param<{ values?: Extraction[] } | undefined>(
        'extractionValues',
        i,
        !extractNode && ctx.typeVersion > 1
          ? { values: [{ key: '', cssSelector: '', returnValue: 'text', returnArray: false }] }
          : {},
      );
      // An array holds one document per element, each its own output item.
      for (const doc of Array.isArray(source) ? source : [source]) {
        const root = loadDocument(doc, i);
        const values = extractions?.values;
        if (!Array.isArray(values))
          throw new NodeOperationError('extractionValues.values is not iterable', undefined, i);
        const json: Record<string, unknown> = {};
        for (const raw of values) {
          // An absent key is '' (the parameter's default).
          const e = { ...raw, key: raw.key ?? '' };
          const matches = root && e.cssSelector ? root.querySelectorAll(e.cssSelector) : [];
          const value = (v: string | Record<string, string> | undefined) =>
            tidy(orAbsent(v, e, extractNode, rendered), trim, clean);
          if (e.returnArray) json[e.key] = matches.map((m) => value(valueOf(m, e, rendered)));
          else if ((e.returnValue ?? 'text') === 'text' && !rendered)
            json[e.key] = value(matches.map((m) => valueOf(m, e, rendered)).join(''));
          else if (matches[0]) json[e.key] = value(valueOf(matches[0], e, rendered));
          else json[e.key] = (e.returnValue ?? 'text') === 'text' ? '' : undefined;
        }
        out.push({ json, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;

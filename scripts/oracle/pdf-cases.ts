// Writes the oracle's pdf-* workflows and cases (test/fixtures/n8n-oracle): PDFs made by the
// tests' own builder (test/workflow/pdf-builder.ts), sent as base64 in a webhook body, turned
// into a file by Convert to File and read by Extract from File (`pdf`, its options) and the
// legacy Read PDF node. Run: node --import tsx scripts/oracle/pdf-cases.ts; then
// `ORACLE_PORT=… npm run oracle -- pdf-` records n8n 2.8.4's answers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPdf, malformedPdfs, xmpPacket } from '../../test/workflow/pdf-builder.js';

const DIR = join(import.meta.dirname, '../../test/fixtures/n8n-oracle');
const b64 = (b: Buffer) => b.toString('base64');

const text = buildPdf({
  pages: [
    [
      { text: 'Quarterly report', y: 720, size: 18 },
      { text: 'Revenue: 1,234.50', y: 690 },
      { text: 'up 12%', x: 250, y: 690 },
      { text: '(draft) \\ note', y: 670 },
    ],
    [{ text: 'Page two', y: 700 }],
    [
      { text: 'Page three, line one', y: 700 },
      { text: 'line two', y: 680 },
    ],
  ],
  info: { Title: 'Report Q3', Author: 'Ann Öst', Subject: 'Numbers', Keywords: 'a, b', Creator: 'hamlet-tests' },
  xmp: xmpPacket('XMP title', 'XMP Ann'),
  compress: true,
});
const unicode = buildPdf({
  pages: [
    [
      { text: 'Zoë: ', y: 700 },
      { text: 'é€ж😀ß', x: 120, y: 700, unicode: true },
    ],
    [{ text: 'Ünïcödé', y: 700, unicode: true }],
  ],
  unicodeChars: ['é', '€', 'ж', '😀', 'ß', 'Ü', 'n', 'ï', 'c', 'ö', 'd'],
  info: { Title: 'Ελληνικά', Author: '山田' },
});
const empty = buildPdf({ pages: [[]] });
const encrypted = (revision: 2 | 3 | 4) =>
  buildPdf({
    pages: [[{ text: `Secret text r${revision}`, y: 700 }]],
    info: { Title: 'Locked' },
    encrypt: { user: 'open sesame', owner: 'owner', revision },
  });
const ownerOnly = buildPdf({ pages: [[{ text: 'Owner password only', y: 700 }]], encrypt: { user: '', owner: 'x' } });

// Layout: how pdf.js's pieces become lines (kerning gaps, a baseline at 0, a superscript,
// T* and ', rotated text, a form XObject, invisible text, a Type0 Identity-H font, right-to-left).
const layoutChars = ['ש', 'ל', 'ו', 'ם', 'ä', '中', '文'];
const cid = (t: string) =>
  '<' + [...t].map((c) => (layoutChars.indexOf(c) + 1).toString(16).padStart(4, '0')).join('') + '>';
const layout = buildPdf({
  pages: [[], []],
  unicodeChars: layoutChars,
  cidFont: true,
  forms: ['BT /F1 12 Tf 72 400 Td (In a form) Tj ET'],
  raw: [
    [
      'BT /F1 12 Tf 72 700 Td [(Hel) -20 (lo) -2000 (World)] TJ ET',
      'BT /F1 12 Tf 72 680 Td (Base) Tj 0 3 Td /F1 8 Tf (sup) Tj ET',
      "BT /F1 12 Tf 14 TL 72 640 Td (Line A) Tj T* (Line B) Tj (Line C) ' ET",
      'BT /F1 12 Tf 0 1 -1 0 300 300 Tm (Rotated) Tj ET',
      '/X1 Do',
      'BT 3 Tr /F1 12 Tf 72 380 Td (Invisible) Tj ET',
      `BT /F3 12 Tf 72 360 Td ${cid('中文ä')} Tj ET`,
      'BT /F2 12 Tf 72 340 Td <01020304> Tj ET',
      'BT /F1 12 Tf 72 320 Td (  double  spaces  ) Tj () Tj ET',
    ].join('\n'),
    'BT /F1 12 Tf 72 0 Td (At zero) Tj 0 20 Td (Above zero) Tj 0 20 Td (Higher) Tj ET',
  ],
});

// Document information beyond the standard text entries: custom keys, a name, dates, a
// language and a form in the catalog, PDF 1.7.
const facts = buildPdf({
  pages: [[{ text: 'Facts', y: 700 }]],
  version: '1.7',
  info: { Title: 'Facts', Producer: 'pdf-builder', CreationDate: "D:20240102030405+01'00'", Department: 'Ops' },
  infoRaw: '/Trapped /False /Pages 1 /Flag true /Odd [1 2]',
  catalogRaw: '/Lang (en-US) /AcroForm << /Fields [] >> /MarkInfo << /Marked true >>',
});

let seed = 7;
const random = Buffer.from(Array.from({ length: 512 }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 255));

const ID = (name: string, n: number) => {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `${h.toString(16).padStart(8, '0').slice(0, 8)}-0000-4000-8000-${String(n).padStart(12, '0')}`;
};

interface Node {
  name: string;
  type: string;
  typeVersion: number;
  parameters: Record<string, unknown>;
  onError?: string;
}

function workflow(name: string, readers: Node[]) {
  const nodes = [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      parameters: { httpMethod: 'POST', path: name, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
    },
    {
      name: 'Input',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      parameters: { jsCode: 'return ($json.body.items ?? []).map((j) => ({ json: j }));' },
    },
    {
      name: 'To file',
      type: 'n8n-nodes-base.convertToFile',
      typeVersion: 1.1,
      parameters: {
        operation: 'toBinary',
        sourceProperty: 'b64',
        options: { fileName: 'doc.pdf', mimeType: 'application/pdf' },
      },
    },
    ...readers,
  ].map((n, i) => ({
    id: ID(name, i + 1),
    ...n,
    position: [i < 3 ? i * 220 : 660, i < 3 ? 0 : (i - 3) * 160],
    ...(n.type === 'n8n-nodes-base.webhook' ? { webhookId: ID(name, 99) } : {}),
  }));
  const to = (node: string) => ({ node, type: 'main', index: 0 });
  return {
    name: name.replace('-', ' '),
    nodes,
    connections: {
      Webhook: { main: [[to('Input')]] },
      Input: { main: [[to('To file')]] },
      'To file': { main: [readers.map((r) => to(r.name))] },
    },
    settings: { executionOrder: 'v1' },
  };
}

const extract = (name: string, options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Node => ({
  name,
  type: 'n8n-nodes-base.extractFromFile',
  typeVersion: 1,
  parameters: { operation: 'pdf', ...extra, options },
  onError: 'continueRegularOutput',
});
const readPdf = (name: string, parameters: Record<string, unknown>): Node => ({
  name,
  type: 'n8n-nodes-base.readPDF',
  typeVersion: 1,
  parameters,
  onError: 'continueRegularOutput',
});

const password = "={{ $('Input').item.json.pw }}";
const sets: Array<{ name: string; readers: Node[]; cases: Array<{ name: string; items: unknown[] }> }> = [
  {
    name: 'pdf-extract',
    readers: [
      extract('PDF'),
      extract('PDF pages', { joinPages: false, maxPages: 2 }),
      extract('PDF none', { maxPages: 0, keepSource: 'json' }),
      extract('PDF both', { keepSource: 'both', maxPages: 1 }),
      extract('PDF password', { password }),
      readPdf('Read PDF', { binaryPropertyName: 'data', encrypted: true, password }),
      readPdf('Read PDF plain', {}),
    ],
    cases: [
      {
        name: 'text',
        items: [
          { b64: b64(text), tag: 1 },
          { b64: b64(unicode), tag: 2 },
          { b64: b64(empty), tag: 3 },
        ],
      },
      {
        name: 'encrypted',
        items: [
          { b64: b64(encrypted(2)), pw: 'open sesame' },
          { b64: b64(encrypted(3)), pw: 'wrong' },
          { b64: b64(encrypted(3)), pw: 'open sesame' },
          { b64: b64(ownerOnly), pw: '' },
        ],
      },
      {
        name: 'aes',
        items: [
          { b64: b64(encrypted(4)), pw: 'open sesame' },
          { b64: b64(encrypted(4)), pw: 'wrong' },
        ],
      },
      {
        name: 'damaged',
        items: [
          { b64: b64(random) },
          { b64: b64(text.subarray(0, text.length >> 1)) },
          { b64: b64(Buffer.from('hello, not a pdf')) },
          { b64: b64(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')) },
        ],
      },
    ],
  },
  {
    name: 'pdf-layout',
    readers: [extract('PDF'), extract('PDF pages', { joinPages: false })],
    cases: [
      { name: 'layout', items: [{ b64: b64(layout) }] },
      { name: 'facts', items: [{ b64: b64(facts) }] },
    ],
  },
  {
    name: 'pdf-hostile',
    readers: [extract('PDF')],
    cases: [
      {
        name: 'malformed',
        items: Object.entries(malformedPdfs()).map(([name, pdf]) => ({ name, b64: b64(pdf) })),
      },
    ],
  },
  {
    name: 'pdf-fail',
    readers: [{ ...extract('PDF', {}, { binaryPropertyName: 'data' }), onError: undefined }],
    cases: [
      { name: 'no-password', items: [{ b64: b64(encrypted(2)) }] },
      { name: 'invalid', items: [{ b64: b64(Buffer.from('%PDF-1.4 nothing else')) }] },
    ],
  },
  {
    name: 'pdf-missing-binary',
    readers: [
      extract('PDF', {}, { binaryPropertyName: 'other' }),
      readPdf('Read PDF', { binaryPropertyName: 'other' }),
    ],
    cases: [{ name: 'other-property', items: [{ b64: b64(text) }] }],
  },
];

for (const set of sets) {
  const wf = workflow(
    set.name,
    set.readers.map((r) => (r.onError ? r : ((({ onError: _, ...rest }) => rest)(r) as Node))),
  );
  writeFileSync(join(DIR, 'workflows', `${set.name}.json`), JSON.stringify(wf, null, 2) + '\n');
  const cases = {
    workflow: `${set.name}.json`,
    volatileKeys: ['version'],
    cases: set.cases.map((c) => ({
      name: c.name,
      trigger: {
        kind: 'webhook',
        method: 'POST',
        path: set.name,
        body: { items: c.items },
        headers: { 'content-type': 'application/json' },
      },
    })),
  };
  writeFileSync(join(DIR, 'cases', `${set.name}.json`), JSON.stringify(cases, null, 2) + '\n');
}

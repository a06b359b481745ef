// PDF text (binary/pdf-text.ts): what pdf.js reads from PDFs written by the test's own builder
// (pdf-builder.ts), and hostile files: bombs (a huge FlateDecode stream, deep nesting, loops in
// the cross-reference chain and the page tree, 100k pages declared or real), encrypted files
// without or with a wrong password, truncated and random bytes, a file that is no PDF. Each must
// end in a result or a clear error, never a hang or a crash of the process; the limits are made
// small here so that the worker is seen to be stopped. What n8n 2.8.4 answers for the same files
// is in the oracle's pdf-* cases.
import { createDeflate } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { PDF_LIMITS, PdfReader, type PdfLimits } from '../../src/services/workflow/binary/pdf-text.js';
import { buildPdf, malformedPdfs, stream, writePdf, xmpPacket } from './pdf-builder.js';

const readers: PdfReader[] = [];
function reader(limits: Partial<PdfLimits> = {}): PdfReader {
  const r = new PdfReader({ ...PDF_LIMITS, timeoutMs: 20_000, ...limits });
  readers.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(readers.map((r) => r.stop()));
});

const plain = reader();

/** A deflate stream of `total` bytes of `chunk` repeated, made without holding them all. */
async function deflated(chunk: Buffer, total: number): Promise<Buffer> {
  const z = createDeflate({ level: 1 });
  const out: Buffer[] = [];
  z.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => z.on('end', resolve));
  for (let n = 0; n < total; n += chunk.length) {
    if (!z.write(chunk)) await new Promise((resolve) => z.once('drain', resolve));
  }
  z.end();
  await done;
  return Buffer.concat(out);
}

/** A one-page PDF whose content stream is `content` (already encoded with `filter`). */
function onePage(content: Buffer, filter = ''): Buffer {
  return writePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      stream(filter, content),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ],
    '/Root 1 0 R',
  );
}

describe('text, pages, metadata', () => {
  const pdf = buildPdf({
    pages: [
      [
        { text: 'Hello world', y: 700 },
        { text: 'Same line', x: 200, y: 700 },
        { text: 'Second line', y: 680 },
      ],
      [{ text: 'Page two', y: 700 }],
      [{ text: 'Page three', y: 700 }],
    ],
    info: { Title: 'A title', Author: 'Ann Ö' },
    xmp: xmpPacket('XMP title', 'XMP Ann'),
    compress: true,
  });

  test('pages joined by a blank line; lines by their baseline; the Info dictionary and XMP', async () => {
    const r = await plain.read(pdf);
    expect(r.text).toBe('Hello world Same line\nSecond line\n\nPage two\n\nPage three');
    expect(r).toMatchObject({ numpages: 3, numrender: 3, version: '5.4.624' });
    expect(Object.keys(r)).toEqual(['numpages', 'numrender', 'info', 'metadata', 'text', 'version']);
    expect(r.info).toMatchObject({ PDFFormatVersion: '1.4', Title: 'A title', Author: 'Ann Ö', IsLinearized: false });
    expect(r.metadata).toEqual({ 'dc:title': 'XMP title', 'dc:creator': ['XMP Ann'] });
  });

  test('joinPages off gives one text per page; maxPages bounds them; 0 reads none', async () => {
    expect((await plain.read(pdf, { joinPages: false })).text).toEqual([
      'Hello world Same line\nSecond line',
      'Page two',
      'Page three',
    ]);
    expect((await plain.read(pdf, { maxPages: 2 })).text).toBe('Hello world Same line\nSecond line\n\nPage two');
    const none = await plain.read(pdf, { maxPages: 0, joinPages: false });
    expect(none).toMatchObject({ numpages: 3, text: [] });
    expect((await plain.read(pdf, { maxPages: 10 })).text).toContain('Page three');
  });

  test('unicode through a ToUnicode CMap; no XMP leaves metadata out', async () => {
    const chars = ['é', '€', 'ж', '😀', 'ß'];
    const r = await plain.read(
      buildPdf({
        pages: [
          [
            { text: 'Zoë: ', y: 700 },
            { text: 'é€ж😀ß', x: 120, y: 700, unicode: true },
          ],
        ],
        unicodeChars: chars,
      }),
    );
    expect(r.text).toBe('Zoë: é€ж😀ß');
    expect(r).not.toHaveProperty('metadata');
  });
});

test('documents asked for at once are read one after another, each its own answer', async () => {
  const docs = ['One', 'Two', 'Three', 'Four'].map((t) => buildPdf({ pages: [[{ text: t, y: 700 }]] }));
  const answers = await Promise.all(docs.map((d, i) => plain.read(d, { maxPages: i === 3 ? 0 : undefined })));
  expect(answers.map((a) => a.text)).toEqual(['One', 'Two', 'Three', '']);
});

describe('encrypted', () => {
  for (const revision of [2, 3, 4] as const) {
    const pdf = buildPdf({
      pages: [[{ text: 'Secret text', y: 700 }]],
      info: { Title: 'Locked' },
      encrypt: { user: 'open sesame', owner: 'owner', revision },
    });
    test(`revision ${revision} (${revision === 4 ? 'AES-128' : 'RC4'}): no password, a wrong one, the right one`, async () => {
      await expect(plain.read(pdf)).rejects.toMatchObject({ message: 'No password given', kind: 'PasswordException' });
      await expect(plain.read(pdf, { password: 'nope' })).rejects.toMatchObject({
        message: 'Incorrect Password',
        kind: 'PasswordException',
      });
      const r = await plain.read(pdf, { password: 'open sesame' });
      expect(r.text).toBe('Secret text');
      expect(r.info).toMatchObject({ Title: 'Locked', EncryptFilterName: 'Standard' });
    });
  }
  test('an empty user password opens without one', async () => {
    const pdf = buildPdf({ pages: [[{ text: 'Owner only', y: 700 }]], encrypt: { user: '', owner: 'x' } });
    expect((await plain.read(pdf)).text).toBe('Owner only');
  });
});

describe('hostile files', () => {
  const good = buildPdf({ pages: [[{ text: 'Fine', y: 700 }]] });

  test('not a PDF, random bytes, empty: pdf.js names the structure as invalid', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    let seed = 7;
    const random = Buffer.from(
      Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 255),
    );
    for (const bytes of [png, random, Buffer.from('hello'), Buffer.alloc(0)])
      await expect(plain.read(bytes)).rejects.toMatchObject({ kind: 'InvalidPDFException' });
  });

  test('truncated anywhere: a result or an error, never a hang', async () => {
    for (const at of [10, 100, good.length >> 1, good.length - 30, good.length - 1]) {
      const out = await plain.read(good.subarray(0, at)).then(
        (r) => r.text,
        (e: Error) => e.message,
      );
      expect(typeof out === 'string' || Array.isArray(out)).toBe(true);
    }
  });

  test('a FlateDecode bomb of text operators: stopped by the text limit', async () => {
    const bomb = await deflated(Buffer.from('BT /F1 1 Tf (AAAAAAAA) Tj ET\n'.repeat(4096)), 32 * 1024 * 1024);
    const small = reader({ maxTextChars: 200_000 });
    await expect(small.read(onePage(bomb, '/Filter /FlateDecode'))).rejects.toMatchObject({ kind: 'limit' });
    expect((await small.read(good)).text).toBe('Fine');
  });

  test('a FlateDecode bomb of text operators with no text limit: stopped by the heap limit', async () => {
    const bomb = await deflated(Buffer.from('BT /F1 1 Tf (AAAAAAAA) Tj ET\n'.repeat(4096)), 64 * 1024 * 1024);
    const small = reader({ heapMb: 128, maxTextChars: Number.MAX_SAFE_INTEGER, timeoutMs: 60_000 });
    await expect(small.read(onePage(bomb, '/Filter /FlateDecode'))).rejects.toMatchObject({
      kind: 'limit',
      message: 'Reading the PDF needed more than 128 MB of memory; it was stopped',
    });
    expect((await small.read(good)).text).toBe('Fine');
  });

  test('a FlateDecode bomb of 1 GB of whitespace: stopped by the memory budget (decoded streams are outside the heap)', async () => {
    const bomb = await deflated(Buffer.alloc(1024 * 1024, 0x20), 1024 * 1024 * 1024);
    const small = reader({ memoryMb: 256, timeoutMs: 15_000 });
    await expect(small.read(onePage(bomb, '/Filter /FlateDecode'))).rejects.toMatchObject({
      kind: 'limit',
      message: 'Reading the PDF needed more than 256 MB of memory; it was stopped',
    });
    // The next document is read by a fresh worker.
    expect((await small.read(good)).text).toBe('Fine');
  });

  test('loops, nesting 100,000 deep, 100,000 pages declared over one: as n8n 2.8.4 answers (pdf-hostile)', async () => {
    const answers: Record<string, unknown> = {};
    for (const [name, pdf] of Object.entries(malformedPdfs()))
      answers[name] = await plain.read(pdf).then(
        (r) => r.text,
        (e: Error) => e.message,
      );
    expect(answers).toEqual({
      prevLoop: 'Fine',
      treeLoop: 'Pages tree contains circular reference.',
      selfLength: '',
      deepArray: 'Maximum call stack size exceeded',
      deepDict: 'Maximum call stack size exceeded',
      declared100k: 'Fine',
    });
    expect((await plain.read(good)).text).toBe('Fine');
  });

  test('100,000 real pages: stopped by the time limit, the next file is read', async () => {
    const n = 100_000;
    const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', ''];
    objects.push(stream('', Buffer.from('BT /F1 12 Tf 72 700 Td (x) Tj ET')).toString('latin1'));
    objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
    const kids: string[] = [];
    for (let i = 0; i < n; i++) {
      kids.push(`${objects.length + 1} 0 R`);
      objects.push('<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 3 0 R >>');
    }
    objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${n} >>`;
    const small = reader({ timeoutMs: 1500 });
    await expect(small.read(writePdf(objects, '/Root 1 0 R'))).rejects.toMatchObject({
      kind: 'limit',
      message: 'Reading the PDF took longer than 1.5 seconds; it was stopped',
    });
    expect((await small.read(good)).text).toBe('Fine');
  });

  test('a file above the size limit is refused unread; a stopped run abandons its document', async () => {
    const small = reader({ maxBytes: 100 });
    await expect(small.read(good)).rejects.toMatchObject({ kind: 'limit', message: /larger than/ });
    const ac = new AbortController();
    const pending = plain.read(good, {}, ac.signal);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    expect((await plain.read(good)).text).toBe('Fine');
  });
});

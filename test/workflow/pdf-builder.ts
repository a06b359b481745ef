// A tiny PDF writer for the tests: pages of text lines in a standard font (Helvetica, WinAnsi),
// optionally a font with a ToUnicode CMap (codes 1.. map to any Unicode text), an Info
// dictionary, an XMP metadata stream, RC4 or AES-128 encryption (the standard security handler, revision 2
// to 4) and raw extra objects for hostile files. Written here from the PDF 1.7 specification;
// nothing is taken from another PDF library. The cross-reference table is always correct for the
// objects written unless a test damages the bytes afterwards.
import { createCipheriv, createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export interface PdfLine {
  text: string;
  x?: number;
  y: number;
  /** Use the ToUnicode font (its characters must be in `unicodeChars`). */
  unicode?: boolean;
  size?: number;
}

export interface PdfSpec {
  pages: PdfLine[][];
  info?: Record<string, string>;
  /** Entries written into the Info dictionary as they are (names, numbers: `/Trapped /False`). */
  infoRaw?: string;
  /** Entries written into the catalog as they are (`/Lang (en-US)`). */
  catalogRaw?: string;
  /** XMP packet stored as the catalog's /Metadata. */
  xmp?: string;
  /** Characters the ToUnicode font can show, in code order (code 1 is the first). */
  unicodeChars?: string[];
  /** Revision 2 and 3: RC4 (40, 128 bits); 4: AES-128 (AESV2). */
  encrypt?: { user: string; owner: string; revision?: 2 | 3 | 4 };
  /** Raw content-stream operators appended to page i's content (fonts /F1, /F2, /F3; forms /X1…). */
  raw?: string[];
  /** Form XObjects (/X1, /X2, …: their content streams), usable from every page. */
  forms?: string[];
  /** Adds /F3: a Type0 font, Identity-H, two-byte codes 1.. mapping to `unicodeChars` by a ToUnicode CMap. */
  cidFont?: boolean;
  /** Compress the content streams with FlateDecode. */
  compress?: boolean;
  version?: string;
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);

/** The standard security handler's values (PDF 1.7, 7.6.3, algorithms 2–5). */
function securityHandler(user: string, owner: string, revision: 2 | 3 | 4, id: Buffer) {
  const length = revision === 2 ? 5 : 16;
  const p = -44; // print and copy allowed, nothing else
  let ownerKey = md5(padded(owner || user));
  if (revision >= 3) for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
  ownerKey = ownerKey.subarray(0, length);
  let o = rc4(ownerKey, padded(user));
  if (revision >= 3) for (let i = 1; i <= 19; i++) o = rc4(Buffer.from(ownerKey.map((b) => b ^ i)), o);
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p);
  let key = md5(padded(user), o, pBytes, id);
  if (revision >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, length));
  key = key.subarray(0, length);
  let u: Buffer;
  if (revision === 2) u = rc4(key, PAD);
  else {
    u = rc4(key, md5(PAD, id));
    for (let i = 1; i <= 19; i++) u = rc4(Buffer.from(key.map((b) => b ^ i)), u);
    u = Buffer.concat([u, Buffer.alloc(16)]);
  }
  const aes = revision === 4;
  const objectKey = (num: number) => {
    const extra = Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0]);
    return md5(key, extra, Buffer.from(aes ? 'sAlT' : '')).subarray(0, Math.min(length + 5, 16));
  };
  /** A string's or stream's bytes encrypted for object `num` (AES: a fixed IV from the number, first). */
  const encrypt = (num: number, data: Buffer) => {
    if (!aes) return rc4(objectKey(num), data);
    const iv = md5(Buffer.from(`iv ${num}`));
    const cipher = createCipheriv('aes-128-cbc', objectKey(num), iv);
    return Buffer.concat([iv, cipher.update(data), cipher.final()]);
  };
  const filter = aes
    ? '/V 4 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV2 /Length 16 >> >> /StmF /StdCF /StrF /StdCF'
    : `/V ${revision === 2 ? 1 : 2}`;
  const dict = `<< /Filter /Standard ${filter} /R ${revision} /Length ${length * 8} /O <${o.toString('hex')}> /U <${u.toString('hex')}> /P ${p} >>`;
  return { dict, encrypt };
}

const hexString = (b: Buffer) => `<${b.toString('hex')}>`;

/** Text in the Info dictionary: PDFDocEncoding when Latin-1 fits, else UTF-16BE with a BOM. */
function infoBytes(s: string): Buffer {
  if (/^[\x20-\x7e]*$/.test(s)) return Buffer.from(s, 'latin1');
  const be = Buffer.from(s, 'utf16le').swap16();
  return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
}

/** Writes objects 1..n with a correct xref table; `objects[i]` is object i+1's body (bytes). */
export function writePdf(objects: Array<Buffer | string>, trailer: string, version = '1.4'): Buffer {
  const parts: Buffer[] = [Buffer.from(`%PDF-${version}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let at = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const b = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(b);
    at += b.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${at}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

export function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/** A PDF of the given pages. Object numbers: 1 catalog, 2 pages, 3 Helvetica, 4 Unicode font, 5 ToUnicode. */
export function buildPdf(spec: PdfSpec): Buffer {
  const id = md5(Buffer.from(JSON.stringify(spec.pages)));
  const sec = spec.encrypt
    ? securityHandler(spec.encrypt.user, spec.encrypt.owner, spec.encrypt.revision ?? 2, id)
    : undefined;
  const enc = (num: number, data: Buffer) => (sec ? sec.encrypt(num, data) : data);
  const objects: Array<Buffer | string> = [];
  const add = (body: Buffer | string) => objects.push(body);
  const str = (num: number, s: string) => hexString(enc(num, infoBytes(s)));

  const chars = spec.unicodeChars ?? [];
  const firstPage = 6;
  const kids = spec.pages.map((_, i) => `${firstPage + i * 2} 0 R`).join(' ');
  add(
    `<< /Type /Catalog /Pages 2 0 R${spec.xmp ? ' /Metadata XMP 0 R' : ''}${spec.catalogRaw ? ` ${spec.catalogRaw}` : ''} >>`,
  );
  add(`<< /Type /Pages /Kids [${kids}] /Count ${spec.pages.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const differences = chars.map((_, i) => `/g${i + 1}`).join(' ');
  add(
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 1 /LastChar ${Math.max(1, chars.length)} ` +
      `/Widths [${chars.map(() => 600).join(' ') || '600'}] /Encoding << /Type /Encoding /Differences [1 ${differences}] >> /ToUnicode 5 0 R >>`,
  );
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    `${chars.length} beginbfchar`,
    ...chars.map(
      (c, i) => `<${(i + 1).toString(16).padStart(2, '0')}> <${Buffer.from(c, 'utf16le').swap16().toString('hex')}>`,
    ),
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  add(stream('', enc(5, Buffer.from(cmap, 'latin1'))));
  // Objects after the pages (only when asked for, so that the other files keep their bytes).
  const after = firstPage + spec.pages.length * 2;
  const extraFonts = spec.cidFont ? ` /F3 ${after} 0 R` : '';
  const formStart = after + (spec.cidFont ? 3 : 0);
  const forms = spec.forms?.length
    ? ` /XObject << ${spec.forms.map((_, i) => `/X${i + 1} ${formStart + i} 0 R`).join(' ')} >>`
    : '';
  spec.pages.forEach((lines, p) => {
    const pageNum = firstPage + p * 2;
    const content = lines
      .map((l) => {
        const shown = l.unicode
          ? hexString(Buffer.from([...l.text].map((c) => chars.indexOf(c) + 1)))
          : hexString(Buffer.from(l.text, 'latin1'));
        return `BT /${l.unicode ? 'F2' : 'F1'} ${l.size ?? 12} Tf ${l.x ?? 72} ${l.y} Td ${shown} Tj ET`;
      })
      .concat(spec.raw?.[p] ?? [])
      .join('\n');
    let data: Buffer = Buffer.from(content, 'latin1');
    const filter = spec.compress ? '/Filter /FlateDecode' : '';
    if (spec.compress) data = deflateSync(data);
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R${extraFonts} >>${forms} >> /Contents ${pageNum + 1} 0 R >>`,
    );
    add(stream(filter, enc(pageNum + 1, data)));
  });
  if (spec.cidFont) {
    add(
      `<< /Type /Font /Subtype /Type0 /BaseFont /Helvetica /Encoding /Identity-H /DescendantFonts [${after + 1} 0 R] /ToUnicode ${after + 2} 0 R >>`,
    );
    add(
      '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Helvetica /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 600 /CIDToGIDMap /Identity >>',
    );
    const cidMap = cmap
      .replace('1 begincodespacerange <00> <FF>', '1 begincodespacerange <0000> <FFFF>')
      .replace(/^<([0-9a-f]{2})> /gm, '<00$1> ');
    add(stream('', enc(after + 2, Buffer.from(cidMap, 'latin1'))));
  }
  for (const form of spec.forms ?? []) {
    const num = objects.length + 1;
    add(
      stream(
        '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>',
        enc(num, Buffer.from(form, 'latin1')),
      ),
    );
  }
  let trailer = `/Root 1 0 R /ID [${hexString(id)} ${hexString(id)}]`;
  if (spec.info) {
    const num = objects.length + 1;
    add(
      '<< ' +
        Object.entries(spec.info)
          .map(([k, v]) => `/${k} ${str(num, v)}`)
          .join(' ') +
        (spec.infoRaw ? ` ${spec.infoRaw}` : '') +
        ' >>',
    );
    trailer += ` /Info ${num} 0 R`;
  }
  if (spec.xmp) {
    const num = objects.length + 1;
    add(stream('/Type /Metadata /Subtype /XML', enc(num, Buffer.from(spec.xmp, 'utf8'))));
    objects[0] = (objects[0] as string).replace('XMP 0 R', `${num} 0 R`);
  }
  if (sec) trailer += ` /Encrypt ${add(sec.dict)} 0 R`;
  return writePdf(objects, trailer, spec.version);
}

/** An XMP packet with a Dublin Core title and creator, as pdf.js reads it. */
export function xmpPacket(title: string, creator: string): string {
  return [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title>`,
    `<dc:creator><rdf:Seq><rdf:li>${creator}</rdf:li></rdf:Seq></dc:creator>`,
    '</rdf:Description></rdf:RDF></x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

/**
 * Small malformed PDFs around a good one-page file: loops (a cross-reference /Prev to itself, a
 * page tree containing itself, a stream whose /Length is itself), nesting 100,000 deep (arrays,
 * dictionaries) and 100,000 pages declared over one.
 */
export function malformedPdfs(): Record<string, Buffer> {
  const good = buildPdf({ pages: [[{ text: 'Fine', y: 700 }]] });
  const latin = good.toString('latin1');
  const deep = (value: string) =>
    writePdf(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Deep ${value} /Contents 4 0 R >>`,
        stream('', Buffer.from('BT /F1 12 Tf 72 700 Td (Deep) Tj ET')),
      ],
      '/Root 1 0 R',
    );
  return {
    prevLoop: Buffer.from(latin.replace('/Root 1 0 R', `/Root 1 0 R /Prev ${good.lastIndexOf('xref')}`), 'latin1'),
    treeLoop: writePdf(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
        '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 1 >>',
      ],
      '/Root 1 0 R',
    ),
    selfLength: writePdf(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>',
        '<< /Length 4 0 R >>\nstream\nBT ET\nendstream',
      ],
      '/Root 1 0 R',
    ),
    deepArray: deep('['.repeat(100_000) + ']'.repeat(100_000)),
    deepDict: deep('<< /A '.repeat(100_000) + '1' + ' >>'.repeat(100_000)),
    declared100k: Buffer.from(latin.replace('/Count 1', '/Count 100000'), 'latin1'),
  };
}

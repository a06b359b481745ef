// A self-signed certificate for STARTTLS when the operator configures none, made with
// node:crypto alone: an ECDSA P-256 key, and an X.509 v3 certificate written in DER by hand
// (node can sign but not build certificates, and the few fields a certificate needs do not
// justify a dependency). Mail clients told to accept it (or pinned to it) get an encrypted
// session; what it proves is only that the server is the same one as last time.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** DER: a tag, its length (short or long form), its contents. */
function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const seq = (...parts: Buffer[]) => der(0x30, ...parts);
const set = (...parts: Buffer[]) => der(0x31, ...parts);
const utf8 = (s: string) => der(0x0c, Buffer.from(s, 'utf8'));
const octets = (b: Buffer) => der(0x04, b);
const bits = (b: Buffer) => der(0x03, Buffer.from([0]), b);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

/**
 * A positive INTEGER from bytes, in DER's one minimal form: leading zero bytes dropped, one put
 * back when the sign bit would be set. (A random serial starting 0x00 0x7f… is otherwise
 * non-minimal, and OpenSSL refuses the whole certificate: "asn1 encoding routines::illegal
 * padding", about one start in 256.)
 */
const integer = (bytes: Buffer) => {
  let b = bytes;
  while (b.length > 1 && b[0] === 0) b = b.subarray(1);
  return der(0x02, b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
};

/** UTCTime up to 2049, GeneralizedTime after, as RFC 5280 requires. */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z'; // YYYYMMDDHHMMSSZ
  return d.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(iso.slice(2))) : der(0x18, Buffer.from(iso));
}

const ECDSA_WITH_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export interface Pem {
  cert: string;
  key: string;
}

/** A certificate for `names` (DNS names or IP addresses), valid from yesterday for `days`. */
export function selfSignedCertificate(names: string[], now: Date, days = 3650): Pem {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const subject = seq(set(seq(oid('2.5.4.3'), utf8(names[0] ?? 'localhost'))));
  const altNames = names.map((n) => {
    const ip = /^\d+\.\d+\.\d+\.\d+$/.test(n)
      ? Buffer.from(n.split('.').map(Number))
      : n === '::1'
        ? Buffer.from([...Array(15).fill(0), 1])
        : undefined;
    return ip ? der(0x87, ip) : der(0x82, Buffer.from(n, 'ascii'));
  });
  const extensions = der(
    0xa3,
    seq(
      seq(oid('2.5.29.17'), octets(seq(...altNames))), // subjectAltName
      seq(oid('2.5.29.19'), octets(seq())), // basicConstraints: not a CA
      seq(oid('2.5.29.14'), octets(octets(createHash('sha1').update(spki).digest()))), // subjectKeyIdentifier
    ),
  );
  const notBefore = new Date(now.getTime() - 86_400_000);
  const notAfter = new Date(now.getTime() + days * 86_400_000);
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const tbs = seq(
    der(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_WITH_SHA256,
    subject,
    seq(time(notBefore), time(notAfter)),
    subject,
    spki,
    extensions,
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const cert = seq(tbs, ECDSA_WITH_SHA256, bits(signature));
  const pem = (label: string, body: Buffer) =>
    `-----BEGIN ${label}-----\n${body
      .toString('base64')
      .replace(/(.{64})/g, '$1\n')
      .replace(/\n$/, '')}\n-----END ${label}-----\n`;
  return { cert: pem('CERTIFICATE', cert), key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

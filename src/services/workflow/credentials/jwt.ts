// JSON Web Tokens (RFC 7515/7519) on node:crypto, for the JWT node and the Webhook node's
// jwtAuth: HS* with a passphrase, RS*/PS*/ES* with PEM keys. The error messages are those of the
// library n8n uses (jsonwebtoken 9), which its JWT node shows as they are.
import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  sign as cryptoSign,
  timingSafeEqual,
  verify as cryptoVerify,
  constants,
  type KeyObject,
} from 'node:crypto';

const ALGORITHMS = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
];

/** jsonwebtoken's errors keep their own messages; the node shows them as they are. */
class JwtError extends Error {}

const b64url = (b: Buffer): string => b.toString('base64url');
const digestOf = (alg: string): string => `sha${alg.slice(2)}`;

/** n8n's reformatting of a PEM key pasted on one line (whitespace back to line breaks). */
export function formatPemKey(key: string | undefined, isPublic = false): string | undefined {
  if (!key || /\n/.test(key)) return key;
  const marker = isPublic ? /(PUBLIC KEY)/ : /(PRIVATE KEY|CERTIFICATE)/;
  let out = '';
  for (let part of key.split('-----').filter((p) => p !== '')) {
    if (marker.test(part)) out += `-----${part}-----`;
    else {
      if (/Proc-Type|DEK-Info/.test(part)) part = part.replace(/:\s+/g, ':');
      out += part.replace(/\\n/g, '\n').replace(/\s+/g, '\n');
    }
  }
  return out;
}

/** The key as jsonwebtoken reads a string: a PEM key when it parses as one, else a secret. */
function keyFrom(material: string, kind: 'private' | 'public'): KeyObject {
  try {
    return kind === 'private' ? createPrivateKey(material) : createPublicKey(material);
  } catch {
    return createSecretKey(Buffer.from(material));
  }
}

function checkKeyKind(key: KeyObject, alg: string, role: 'secretOrPrivateKey' | 'secretOrPublicKey'): void {
  if (alg.startsWith('HS') && key.type !== 'secret')
    throw new JwtError(`${role} must be a symmetric key when using ${alg}`);
  const wanted = role === 'secretOrPrivateKey' ? 'private' : 'public';
  if (/^(RS|PS|ES)/.test(alg) && key.type !== wanted)
    throw new JwtError(`${role} must be an asymmetric key when using ${alg}`);
}

function signature(alg: string, key: KeyObject, input: string): Buffer {
  const digest = digestOf(alg);
  if (alg.startsWith('HS')) return createHmac(digest, key).update(input).digest();
  if (alg.startsWith('ES')) return cryptoSign(digest, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  if (alg.startsWith('PS'))
    return cryptoSign(digest, Buffer.from(input), {
      key,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
    });
  return cryptoSign(digest, Buffer.from(input), key);
}

function signatureValid(alg: string, key: KeyObject, input: string, sig: Buffer): boolean {
  const digest = digestOf(alg);
  if (alg.startsWith('HS')) {
    const expected = createHmac(digest, key).update(input).digest();
    return expected.length === sig.length && timingSafeEqual(expected, sig);
  }
  const data = Buffer.from(input);
  if (alg.startsWith('ES')) return cryptoVerify(digest, data, { key, dsaEncoding: 'ieee-p1363' }, sig);
  if (alg.startsWith('PS'))
    return cryptoVerify(
      digest,
      data,
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO },
      sig,
    );
  return cryptoVerify(digest, data, key, sig);
}

export function signJwt(
  payload: Record<string, unknown>,
  material: string | undefined,
  alg: string,
  nowSeconds: number,
  kid?: string,
): string {
  if (!ALGORITHMS.includes(alg)) throw new JwtError('"algorithm" must be a valid string enum value');
  if (!material) throw new JwtError('secretOrPrivateKey must have a value');
  const key = keyFrom(material, 'private');
  checkKeyKind(key, alg, 'secretOrPrivateKey');
  if (/^(RS|PS)/.test(alg) && (key.asymmetricKeyDetails?.modulusLength ?? 2048) < 2048)
    throw new JwtError(`secretOrPrivateKey has a minimum key size of 2048 bits for ${alg}`);
  for (const claim of ['iat', 'exp', 'nbf'])
    if (payload[claim] !== undefined && typeof payload[claim] !== 'number')
      throw new JwtError(`"${claim}" should be a number of seconds`);
  const body = { ...payload };
  body.iat ??= nowSeconds;
  const header: Record<string, unknown> = { alg, typ: 'JWT', ...(kid ? { kid } : {}) };
  const input = `${b64url(Buffer.from(JSON.stringify(header)))}.${b64url(Buffer.from(JSON.stringify(body)))}`;
  return `${input}.${b64url(signature(alg, key, input))}`;
}

export interface Decoded {
  header: Record<string, unknown>;
  payload: unknown;
  signature: string;
}

/** jsonwebtoken's decode: null for anything that is not three base64url parts with a JSON header. */
export function decodeJwt(token: string): Decoded | null {
  if (!/^[a-zA-Z0-9\-_]+?\.[a-zA-Z0-9\-_]+?\.([a-zA-Z0-9\-_]+)?$/.test(token)) return null;
  const [h, p, s] = token.split('.');
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(h, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!header || typeof header !== 'object') return null;
  const text = Buffer.from(p, 'base64').toString('utf8');
  let payload: unknown = text;
  // A token typed JWT must carry JSON (the library fails on it otherwise); others may be text.
  if ((header as Record<string, unknown>).typ === 'JWT') payload = JSON.parse(text);
  else
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object') payload = parsed;
    } catch {
      // plain text payload
    }
  return { header: header as Record<string, unknown>, payload, signature: s };
}

export interface VerifyOptions {
  ignoreExpiration?: boolean;
  ignoreNotBefore?: boolean;
  clockTolerance?: number;
}

export function verifyJwt(
  token: string,
  material: string | undefined,
  alg: string,
  nowSeconds: number,
  options: VerifyOptions,
): Decoded {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('jwt malformed');
  let decoded: Decoded | null;
  try {
    decoded = decodeJwt(token);
  } catch {
    decoded = null;
  }
  if (!decoded) throw new JwtError('invalid token');
  const hasSignature = parts[2].trim() !== '';
  if (!hasSignature && material) throw new JwtError('jwt signature is required');
  if (hasSignature && !material) throw new JwtError('secret or public key must be provided');
  const key = keyFrom(material ?? '', 'public');
  if (decoded.header.alg !== alg) throw new JwtError('invalid algorithm');
  checkKeyKind(key, alg, 'secretOrPublicKey');
  let valid: boolean;
  try {
    valid = signatureValid(alg, key, `${parts[0]}.${parts[1]}`, Buffer.from(parts[2], 'base64url'));
  } catch {
    valid = false;
  }
  if (!valid) throw new JwtError('invalid signature');
  const payload = decoded.payload as Record<string, unknown>;
  const tolerance = Number(options.clockTolerance ?? 0) || 0;
  if (payload.nbf !== undefined && !options.ignoreNotBefore) {
    if (typeof payload.nbf !== 'number') throw new JwtError('invalid nbf value');
    if (payload.nbf > nowSeconds + tolerance) throw new JwtError('jwt not active');
  }
  if (payload.exp !== undefined && !options.ignoreExpiration) {
    if (typeof payload.exp !== 'number') throw new JwtError('invalid exp value');
    if (nowSeconds >= payload.exp + tolerance) throw new JwtError('jwt expired');
  }
  return decoded;
}

// The Webhook node's `authentication` (basicAuth, headerAuth, jwtAuth), checked against the
// credential the node references before a request may start a run. Without this the option
// would be silently ignored and a webhook its author protected would take anyone's request.
// Answers use n8n's words: 401 with a Basic challenge when Basic credentials are absent,
// 403 "Authorization data is wrong!" when what came does not match.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { WorkflowNode } from '../engine/types.js';
import { formatPemKey, verifyJwt } from '../credentials/jwt.js';

export interface WebhookAuthDenial {
  status: number;
  headers: Record<string, string>;
  message: string;
}

const WRONG: WebhookAuthDenial = { status: 403, headers: {}, message: 'Authorization data is wrong!' };
const CREDENTIAL_TYPE: Record<string, string> = {
  basicAuth: 'httpBasicAuth',
  headerAuth: 'httpHeaderAuth',
  jwtAuth: 'jwtAuth',
};

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function checkBasic(header: string | undefined, data: Record<string, unknown>): WebhookAuthDenial | undefined {
  if (!header?.toLowerCase().startsWith('basic '))
    return {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="Webhook"' },
      message: 'Authorization is required!',
    };
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const ok =
    colon >= 0 && same(decoded.slice(0, colon), text(data.user)) && same(decoded.slice(colon + 1), text(data.password));
  return ok ? undefined : WRONG;
}

/** A compact JWS signed as the credential says (credentials/jwt.ts) whose `exp`/`nbf` hold now. */
function checkJwt(
  header: string | undefined,
  data: Record<string, unknown>,
  nowS: number,
): WebhookAuthDenial | undefined {
  const token = header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined;
  if (!token) return { status: 401, headers: {}, message: 'No token provided' };
  const key = data.keyType === 'pemKey' ? formatPemKey(text(data.publicKey), true) : text(data.secret);
  try {
    verifyJwt(token, key, text(data.algorithm) || 'HS256', nowS, {});
    return undefined;
  } catch {
    return WRONG;
  }
}

/**
 * Undefined when the request may run the workflow; else the answer to send. `credential`
 * resolves the node's credential (throws when it is missing: then nobody gets in).
 */
export async function checkWebhookAuth(
  node: WorkflowNode,
  headers: IncomingHttpHeaders,
  credential: ((node: WorkflowNode, type: string) => Promise<Record<string, unknown>>) | undefined,
  nowS: number,
): Promise<WebhookAuthDenial | undefined> {
  const auth = text(node.parameters?.authentication) || 'none';
  if (auth === 'none') return undefined;
  const type = CREDENTIAL_TYPE[auth];
  if (!type || !credential)
    return { status: 500, headers: {}, message: `Webhook authentication "${auth}" is not supported` };
  let data: Record<string, unknown>;
  try {
    data = await credential(node, type);
  } catch {
    return { status: 500, headers: {}, message: 'No authentication data defined on node!' };
  }
  const authorization = headers.authorization;
  if (auth === 'basicAuth') return checkBasic(authorization, data);
  if (auth === 'jwtAuth') return checkJwt(authorization, data, nowS);
  const got = headers[text(data.name).toLowerCase()];
  return typeof got === 'string' && same(got, text(data.value)) ? undefined : WRONG;
}

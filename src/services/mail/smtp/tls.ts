// The certificate STARTTLS presents: the operator's (MAIL_SMTP_TLS_CERT / MAIL_SMTP_TLS_KEY,
// PEM files), or a self-signed one made on the first start and kept in the data directory, so
// a client that pinned it keeps trusting the server across restarts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../platform/logger.js';
import type { MailSettings } from '../settings.js';
import { selfSignedCertificate, type Pem } from './self-signed.js';

/** Where the generated pair lives, under the data directory. */
const GENERATED_DIR = 'mail-tls';

function readPair(certFile: string, keyFile: string): Pem {
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

export function smtpCertificate(config: Pick<MailSettings, 'tlsCertFile' | 'tlsKeyFile' | 'domains'>, dataDir: string, now: Date, logger: Logger): Pem & { source: string } {
  if (config.tlsCertFile && config.tlsKeyFile) return { ...readPair(config.tlsCertFile, config.tlsKeyFile), source: config.tlsCertFile };
  const dir = path.join(dataDir, GENERATED_DIR);
  const certFile = path.join(dir, 'smtp-cert.pem');
  const keyFile = path.join(dir, 'smtp-key.pem');
  try {
    return { ...readPair(certFile, keyFile), source: certFile };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const pem = selfSignedCertificate([...config.domains, 'localhost', '127.0.0.1', '::1'], now);
  mkdirSync(dir, { recursive: true });
  // The key first, readable by its owner only; `wx`: a second process starting at the same
  // moment does not overwrite the pair the first one wrote (it reads that one instead).
  try {
    writeFileSync(keyFile, pem.key, { flag: 'wx', mode: 0o600 });
    writeFileSync(certFile, pem.cert, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { ...readPair(certFile, keyFile), source: certFile };
  }
  logger.info({ cert: certFile }, 'smtp: made a self-signed STARTTLS certificate (set MAIL_SMTP_TLS_CERT and MAIL_SMTP_TLS_KEY to use your own)');
  return { ...pem, source: certFile };
}

// The certificate STARTTLS presents: the operator's (MAIL_SMTP_TLS_CERT / MAIL_SMTP_TLS_KEY,
// PEM files), or a self-signed one made on the first start and kept in the data directory, so
// a client that pinned it keeps trusting the server across restarts.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createOnce } from '../../../platform/files.js';
import path from 'node:path';
import type { Logger } from '../../../platform/logger.js';
import type { MailSettings } from '../settings.js';
import { selfSignedCertificate, type Pem } from './self-signed.js';

/** Where the generated pair lives, under the data directory. */
const GENERATED_DIR = 'mail-tls';

function readPair(certFile: string, keyFile: string): Pem {
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

/** The pair another process is writing: its key follows its certificate within moments. */
function waitForPair(certFile: string, keyFile: string): Pem {
  const until = Date.now() + 10_000;
  while (!existsSync(keyFile)) {
    if (Date.now() > until)
      throw new Error(
        `${certFile} has no key beside it (${keyFile}): a process stopped while writing them; delete the certificate to have a new pair made`,
      );
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // start-up code: a short synchronous pause
  }
  return readPair(certFile, keyFile);
}

export function smtpCertificate(
  config: Pick<MailSettings, 'tlsCertFile' | 'tlsKeyFile' | 'domains'>,
  dataDir: string,
  now: Date,
  logger: Logger,
): Pem & { source: string } {
  if (config.tlsCertFile && config.tlsKeyFile)
    return { ...readPair(config.tlsCertFile, config.tlsKeyFile), source: config.tlsCertFile };
  const dir = path.join(dataDir, GENERATED_DIR);
  const certFile = path.join(dir, 'smtp-cert.pem');
  const keyFile = path.join(dir, 'smtp-key.pem');
  if (existsSync(keyFile)) return { ...readPair(certFile, keyFile), source: certFile };
  mkdirSync(dir, { recursive: true });
  // The certificate is linked into place first and the key last, so an existing key means a
  // complete pair. A process that loses the race for the certificate waits for the winner's key.
  const pem = selfSignedCertificate([...config.domains, 'localhost', '127.0.0.1', '::1'], now);
  if (!createOnce(certFile, pem.cert, 0o644)) return { ...waitForPair(certFile, keyFile), source: certFile };
  createOnce(keyFile, pem.key);
  logger.info(
    { cert: certFile },
    'smtp: made a self-signed STARTTLS certificate (set MAIL_SMTP_TLS_CERT and MAIL_SMTP_TLS_KEY to use your own)',
  );
  return { ...pem, source: certFile };
}

// The STARTTLS certificate made on first start must always be one OpenSSL accepts: a random
// serial once came out in non-minimal DER about one time in 256 ("asn1 encoding
// routines::illegal padding"), failing that start. 3,000 certificates catch that with near
// certainty (8 of 3,000 were refused before the fix).
import { createSecureContext } from 'node:tls';
import { expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/services/mail/smtp/self-signed.js';

it('every generated certificate and key load into a TLS context', () => {
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const pem = selfSignedCertificate(['mail.test'], new Date());
    try {
      createSecureContext({ cert: pem.cert, key: pem.key });
    } catch {
      refused++;
    }
  }
  expect(refused).toBe(0);
}, 60_000);

// A stand-in for swaks (the SMTP test tool the docs use) on machines without it, for the docs
// test only: the options the docs use (--server, --to, --from, --header, --body, --tls,
// --auth-user, --auth-password), one message, exit 0 when the server accepted it.
import nodemailer from 'nodemailer';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const [host, port] = (opt('server') ?? '127.0.0.1:25').split(':');
const headers = Object.fromEntries(
  args.flatMap((a, i) => (a === '--header' && args[i + 1] ? [args[i + 1]!.split(/:\s*/, 2) as [string, string]] : [])),
);
const tls = args.includes('--tls');
const user = opt('auth-user');
const transport = nodemailer.createTransport({
  host,
  port: Number(port ?? 25),
  secure: false,
  // swaks --tls insists on STARTTLS and, like swaks, does not check the certificate.
  ...(tls ? { requireTLS: true, tls: { rejectUnauthorized: false } } : { ignoreTLS: true }),
  ...(user ? { auth: { user, pass: opt('auth-password') ?? '' } } : {}),
});
await transport.sendMail({
  from: opt('from') ?? 'swaks@localhost',
  to: opt('to'),
  subject: headers['Subject'] ?? 'test',
  text: opt('body') ?? 'This is a test mailing',
});
transport.close();

// A raw SMTP socket for the benches: nodemailer caps itself and hides reply codes, so load and
// abuse scenarios speak the protocol by hand. `reply()` waits for the next complete reply
// (continuation lines "NNN-…" up to the final "NNN …"); a closed socket answers 'closed'.
import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';

export function smtpSocket(port: number, localAddress?: string) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  socket.setNoDelay(true);
  return { socket, ...replies(socket) };
}

/** The replies arriving on a socket, plain or TLS (after STARTTLS the reader moves to the TLS socket). */
function replies(socket: Duplex) {
  let buffer = '';
  const waiting: Array<(reply: string) => void> = [];
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.on('error', () => {}); // the close that follows is what callers wait on
  socket.on('data', (d) => {
    buffer += d.toString('latin1');
    for (;;) {
      const m = /^(?:\d{3}-[^\n]*\n)*\d{3} [^\n]*\n/.exec(buffer);
      if (!m) break;
      buffer = buffer.slice(m[0].length);
      waiting.shift()?.(m[0].trim());
    }
  });
  socket.once('close', () => {
    for (const w of waiting.splice(0)) w('closed');
  });
  const reply = () => new Promise<string>((r) => waiting.push(r));
  return { reply, closed };
}

/**
 * An SMTP session upgraded with STARTTLS (the server's certificate is not checked: the bench
 * measures the server, whatever certificate it has) and, given credentials, AUTH PLAIN.
 */
export async function smtpTlsSession(port: number, auth?: { user: string; pass: string }) {
  const plain = smtpSocket(port);
  const step = async (session: { reply(): Promise<string> }, socket: Duplex, line: string, expect: string) => {
    const p = session.reply();
    socket.write(line + '\r\n');
    const r = await p;
    if (!r.startsWith(expect)) throw new Error(`${line.split(' ')[0]}: ${r}`);
  };
  if (!(await plain.reply()).startsWith('220')) throw new Error('no SMTP greeting');
  await step(plain, plain.socket, 'EHLO bench.local', '250');
  await step(plain, plain.socket, 'STARTTLS', '220');
  plain.socket.removeAllListeners('data');
  const socket = tls.connect({ socket: plain.socket, rejectUnauthorized: false });
  await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  const session = { socket, ...replies(socket) };
  await step(session, socket, 'EHLO bench.local', '250');
  if (auth)
    await step(session, socket, `AUTH PLAIN ${Buffer.from(`\0${auth.user}\0${auth.pass}`).toString('base64')}`, '235');
  return session;
}

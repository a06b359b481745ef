// A raw SMTP socket for the benches: nodemailer caps itself and hides reply codes, so load and
// abuse scenarios speak the protocol by hand. `reply()` waits for the next complete reply
// (continuation lines "NNN-…" up to the final "NNN …"); a closed socket answers 'closed'.
import net from 'node:net';

export function smtpSocket(port: number, localAddress?: string) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  socket.setNoDelay(true);
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
  return { socket, reply, closed };
}

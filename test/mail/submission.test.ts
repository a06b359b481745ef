// SMTP as a real server: STARTTLS on both ports with the certificate made into the data dir,
// AUTH PLAIN/LOGIN on the submission port with a mail key (user name: the inbox), refused
// before STARTTLS and with bad credentials; a submitted message is sent as the inbox.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpSession, smtpSend, startMail, type MailTestEnv } from './helpers.js';

describe('SMTP submission with STARTTLS and AUTH', () => {
  let env: MailTestEnv;
  let port: number;
  let ca: string;
  let a: string;
  let b: string;

  const transport = (auth: { user: string; pass: string } | undefined, extra: Record<string, unknown> = {}) =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      requireTLS: true,
      auth,
      tls: { ca },
      ...extra,
    });

  beforeAll(async () => {
    env = await startMail();
    port = Number(new URL(env.t.url('mail', 'submission')).port);
    ca = readFileSync(path.join(env.t.dataDir, 'mail-tls', 'smtp-cert.pem'), 'utf8');
    a = (await env.client.inboxes.create({ username: 'submitter', displayName: 'Sub Mitter' })).inboxId;
    b = (await env.client.inboxes.create({ username: 'local-friend' })).inboxId;
  });
  afterAll(async () => env?.t.destroy());

  it('made a self-signed certificate for the mail domain and loopback into the data dir', () => {
    const cert = new X509Certificate(ca);
    expect(cert.subjectAltName).toContain('DNS:mail.test');
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  for (const method of ['PLAIN', 'LOGIN']) {
    it(`sends as the inbox after STARTTLS and AUTH ${method}: sent copy, local delivery, outside mail held`, async () => {
      const subject = `Submitted with ${method}`;
      const t = transport({ user: a, pass: env.key }, { authMethod: method });
      const info = await t.sendMail({
        from: `Sub Mitter <${a}>`,
        to: [b, 'friend@outside.test'],
        bcc: 'secret@outside.test',
        subject,
        text: 'Hello over submission',
      });
      t.close();
      expect(info.response).toMatch(/^250/);
      expect(info.accepted.sort()).toEqual([b, 'friend@outside.test', 'secret@outside.test'].sort());

      const sent = await env.client.inboxes.messages.get(a, info.messageId);
      expect(sent.labels).toEqual(expect.arrayContaining(['sent', 'queued']));
      expect(sent.bcc).toEqual(['secret@outside.test']);
      expect(sent.text?.trim()).toBe('Hello over submission');
      const received = await env.client.inboxes.messages.get(b, info.messageId);
      expect(received.labels).toEqual(expect.arrayContaining(['received', 'unread']));
      expect(received.subject).toBe(subject);
      const outbox = await env.call('GET', '/v0/outbox');
      const held = outbox.body.messages.find((m: any) => m.message_id === info.messageId);
      expect(held).toMatchObject({ status: 'queued', source: 'inbox', inbox_id: a, from: a, subject });
      expect(held.to.sort()).toEqual(['friend@outside.test', 'secret@outside.test']);
    });
  }

  it('fills in Message-ID and Date when the client leaves them out', async () => {
    const t = transport({ user: a, pass: env.key });
    const raw = `From: ${a}\r\nTo: ${b}\r\nSubject: bare\r\n\r\nno id\r\n`;
    const info = await t.sendMail({ envelope: { from: a, to: [b] }, raw });
    t.close();
    const id = /queued as (<[^>]+>)/.exec(info.response)?.[1];
    expect(id).toMatch(/@mail\.test>$/);
    const got = await env.client.inboxes.messages.get(b, id!);
    expect(got.subject).toBe('bare');
  });

  it("refuses bad credentials: a wrong key, an unknown inbox, another organization's inbox", async () => {
    const { key: otherKey } = await env.t.hamlet.platform.keys.create('mail', { name: 'other org' });
    for (const auth of [
      { user: a, pass: 'am_not-a-key' },
      { user: 'nobody@mail.test', pass: env.key },
      { user: a, pass: otherKey },
    ]) {
      const t = transport(auth);
      await expect(t.sendMail({ from: a, to: b, subject: 'no', text: 'no' })).rejects.toMatchObject({
        responseCode: 535,
      });
      t.close();
    }
  });

  it('refuses AUTH before STARTTLS (538), so no password crosses in clear; mail without AUTH (530)', async () => {
    const s = await smtpSession(port);
    const ehlo = await s.cmd('EHLO client.test');
    expect(ehlo).toContain('STARTTLS');
    const plain = Buffer.from(`\0${a}\0${env.key}`).toString('base64');
    expect(await s.cmd(`AUTH PLAIN ${plain}`)).toMatch(/^538/);
    expect(await s.cmd(`MAIL FROM:<${a}>`)).toMatch(/^530/);
    await s.close();

    const t = transport(undefined);
    await expect(t.sendMail({ from: a, to: b, subject: 'no auth', text: 'x' })).rejects.toMatchObject({
      responseCode: 530,
    });
    t.close();
  });

  it('sends only as the authenticated inbox (MAIL FROM and From:)', async () => {
    const t = transport({ user: a, pass: env.key });
    await expect(t.sendMail({ from: b, to: b, subject: 'spoof', text: 'x' })).rejects.toMatchObject({
      responseCode: 553,
    });
    await expect(
      t.sendMail({ envelope: { from: a, to: [b] }, from: b, to: b, subject: 'spoof header', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    t.close();
  });

  it('offers STARTTLS on the inbound port too, still without AUTH, and takes mail over TLS', async () => {
    const s = await smtpSession(env.smtpPort);
    const ehlo = await s.cmd('EHLO mx.test');
    expect(ehlo).toContain('STARTTLS');
    expect(ehlo).not.toMatch(/AUTH/);
    await s.close();
    const t = nodemailer.createTransport({
      host: '127.0.0.1',
      port: env.smtpPort,
      secure: false,
      requireTLS: true,
      tls: { ca },
    });
    const info = await t.sendMail({ from: 'someone@outside.test', to: b, subject: 'Inbound over TLS', text: 'hi' });
    t.close();
    expect((await env.client.inboxes.messages.get(b, info.messageId)).subject).toBe('Inbound over TLS');
    // Plain SMTP keeps working for MTAs that do not upgrade.
    expect(
      await smtpSend(
        env.smtpPort,
        'someone@outside.test',
        [b],
        `From: someone@outside.test\r\nTo: ${b}\r\nSubject: plain\r\n\r\nhi\r\n`,
      ),
    ).toMatch(/^250/);
  });
});

describe("the submission port's connection limits", () => {
  let env: MailTestEnv;
  beforeAll(async () => {
    env = await startMail({ env: { MAIL_SMTP_MAX_PER_ADDRESS: '2', MAIL_SMTP_MAX_CONNECTIONS: '3' } });
  });
  afterAll(async () => env?.t.destroy());

  it('gives one address its share and no more, and caps all addresses together', async () => {
    const port = Number(new URL(env.t.url('mail', 'submission')).port);
    const held = [await smtpSession(port), await smtpSession(port)];
    for (const s of held) expect(s.greeting).toMatch(/^220/);
    const third = await smtpSession(port);
    expect(third.greeting).toMatch(/^421 .*Too many connections from your address/);
    // Another address (all of 127/8 is loopback) is still served, up to the total.
    const other = await smtpSession(port, '127.0.0.1', '127.0.0.2');
    expect(other.greeting).toMatch(/^220/);
    const overTotal = await smtpSession(port, '127.0.0.1', '127.0.0.3');
    expect(overTotal.greeting).toMatch(/^421/);
    // The refused ones were closed by the server with their 421.
    for (const s of [...held, other]) await s.close();
  });
});

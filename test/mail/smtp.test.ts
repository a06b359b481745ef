// Real mail into the SMTP port with a plain SMTP client, read back through the API, threaded;
// and bad input over SMTP refused with a 5xx without harming what is stored.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpSend, smtpSession, startMail, type MailTestEnv } from './helpers.js';

describe('SMTP ingest', () => {
  let env: MailTestEnv;
  let inbox: string;
  const enc = (s: string) => encodeURIComponent(s);

  beforeAll(async () => {
    env = await startMail();
    inbox = (await env.client.inboxes.create({ username: 'smtp-in' })).inboxId;
  });
  afterAll(async () => env?.t.destroy());

  it('files a multipart message with an attachment, an inline image and a non-ASCII subject', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: env.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    const info = await transport.sendMail({
      from: 'Jürgen Außen <jurgen@outside.test>',
      to: inbox,
      cc: 'someone@outside.test',
      subject: 'Grüße aus München — 你好 🎉',
      text: 'Hallo! Ein Text mit Umlauten: äöü.',
      html: '<p>Hallo <img src="cid:logo@x"> <script>alert(1)</script><a href="javascript:alert(2)">x</a></p>',
      messageId: '<first@outside.test>',
      attachments: [
        { filename: 'bericht.pdf', content: Buffer.from('%PDF-1.4 fake'), contentType: 'application/pdf' },
        { filename: 'logo.png', content: Buffer.from([137, 80, 78, 71]), contentType: 'image/png', cid: 'logo@x' },
      ],
    });
    transport.close();
    expect(info.accepted).toEqual([inbox]);

    const list = await env.client.inboxes.messages.list(inbox);
    expect(list.messages.length).toBe(1);
    const m = await env.client.inboxes.messages.get(inbox, '<first@outside.test>');
    expect(m.subject).toBe('Grüße aus München — 你好 🎉');
    expect(m.from).toBe('Jürgen Außen <jurgen@outside.test>');
    expect(m.cc).toEqual(['someone@outside.test']);
    expect(m.labels).toEqual(['received', 'unread']);
    expect(m.text).toContain('äöü');
    expect(m.html).toContain('<script>'); // stored as received
    expect(m.extractedHtml).not.toContain('<script>');
    expect(m.extractedHtml).not.toContain('javascript:');
    const byName = Object.fromEntries(m.attachments!.map((a) => [a.filename, a]));
    expect([byName['bericht.pdf']!.contentType, byName['bericht.pdf']!.contentDisposition]).toEqual([
      'application/pdf',
      'attachment',
    ]);
    expect([
      byName['logo.png']!.contentType,
      byName['logo.png']!.contentDisposition,
      byName['logo.png']!.contentId,
    ]).toEqual(['image/png', 'inline', 'logo@x']);
    const att = await env.client.inboxes.messages.getAttachment(
      inbox,
      m.messageId,
      byName['bericht.pdf']!.attachmentId,
    );
    expect(Buffer.from(await (await fetch(att.downloadUrl)).arrayBuffer()).toString()).toBe('%PDF-1.4 fake');
  });

  it('threads a reply by In-Reply-To and References, and strips the quoted history', async () => {
    const sent = await env.client.inboxes.messages.send(inbox, {
      to: 'jurgen@outside.test',
      subject: 'Question',
      text: 'How are you?',
    });
    const reply = [
      'From: Jurgen <jurgen@outside.test>',
      `To: ${inbox}`,
      'Subject: Re: Question',
      'Message-ID: <reply-1@outside.test>',
      `In-Reply-To: ${sent.messageId}`,
      `References: ${sent.messageId}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Fine, thanks!',
      '',
      'On Mon, Jan 5, 2026 at 10:00 AM <smtp-in@mail.test> wrote:',
      '> How are you?',
      '',
    ].join('\r\n');
    expect(await smtpSend(env.smtpPort, 'jurgen@outside.test', [inbox], reply)).toMatch(/^250/);
    const m = await env.client.inboxes.messages.get(inbox, '<reply-1@outside.test>');
    expect(m.threadId).toBe(sent.threadId);
    expect(m.inReplyTo).toBe(sent.messageId);
    expect(m.references).toEqual([sent.messageId]);
    expect(m.extractedText).toBe('Fine, thanks!');
    // A second reply that only carries References still joins the thread.
    const again = [
      'From: jurgen@outside.test',
      `To: ${inbox}`,
      'Subject: Re: Question',
      'Message-ID: <reply-2@outside.test>',
      `References: <unknown@x.test> ${sent.messageId}`,
      '',
      'One more thing.',
      '',
    ].join('\r\n');
    expect(await smtpSend(env.smtpPort, 'jurgen@outside.test', [inbox], again)).toMatch(/^250/);
    const thread = await env.client.inboxes.threads.get(inbox, sent.threadId);
    expect(thread.messageCount).toBe(3);
    expect(thread.messages.map((x) => x.messageId)).toEqual([
      sent.messageId,
      '<reply-1@outside.test>',
      '<reply-2@outside.test>',
    ]);
    expect(thread.labels).toEqual(expect.arrayContaining(['sent', 'received', 'unread']));
    expect(thread.senders).toEqual(expect.arrayContaining(['Jurgen <jurgen@outside.test>']));
    expect(thread.receivedTimestamp).toBeInstanceOf(Date);
    expect(thread.sentTimestamp).toBeInstanceOf(Date);
  });

  it('refuses unknown recipients, foreign domains and too many recipients at RCPT', async () => {
    const s = await smtpSession(env.smtpPort);
    expect(s.greeting).toMatch(/^220/);
    await s.cmd('EHLO test.local');
    expect(await s.cmd('MAIL FROM:<x@outside.test>')).toMatch(/^250/);
    expect(await s.cmd('RCPT TO:<nobody@mail.test>')).toMatch(/^550/);
    expect(await s.cmd('RCPT TO:<someone@gmail.com>')).toMatch(/^550/);
    const many: string[] = [];
    for (let i = 0; i < 51; i++) many.push((await env.client.inboxes.create({ username: `many-${i}` })).inboxId);
    for (const r of many.slice(0, 50)) expect(await s.cmd(`RCPT TO:<${r}>`)).toMatch(/^250/);
    expect(await s.cmd(`RCPT TO:<${many[50]}>`)).toMatch(/^452/);
    await s.close();
  });

  it('refuses oversize mail, huge headers and keeps what is stored intact; survives 8-bit garbage and broken MIME', async () => {
    const before = (await env.client.inboxes.messages.list(inbox)).messages.length;
    const big =
      `From: a@outside.test\r\nTo: ${inbox}\r\nSubject: big\r\n\r\n${'x'.repeat(100) + '\r\n'}`.repeat(1) +
      ('y'.repeat(998) + '\r\n').repeat(6600);
    expect(await smtpSend(env.smtpPort, 'a@outside.test', [inbox], big)).toMatch(/^552/);
    const hugeHeader = `From: a@outside.test\r\nTo: ${inbox}\r\nX-Big: ${'h'.repeat(300 * 1024)}\r\nSubject: huge header\r\n\r\nbody\r\n`;
    expect(await smtpSend(env.smtpPort, 'a@outside.test', [inbox], hugeHeader)).toMatch(/^5\d\d/);
    expect((await env.client.inboxes.messages.list(inbox)).messages.length).toBe(before);

    // 8-bit garbage, NUL bytes and a broken multipart: accepted as far as it can be read, never a crash.
    const garbage = Buffer.concat([
      Buffer.from(
        `From: g@outside.test\r\nTo: ${inbox}\r\nSubject: \xff\xfe garbage\r\nMessage-ID: <garbage@outside.test>\r\nContent-Type: multipart/mixed; boundary="zzz"\r\n\r\n--zzz\r\nContent-Type: text/plain\r\n\r\n`,
        'latin1',
      ),
      Buffer.from([0xff, 0x00, 0xfe, 0x80, 0x81, 0x0d, 0x0a]),
      Buffer.from(
        '--zzz\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n',
        'latin1',
      ),
    ]);
    expect(await smtpSend(env.smtpPort, 'g@outside.test', [inbox], garbage)).toMatch(/^250/);
    const g = await env.client.inboxes.messages.get(inbox, '<garbage@outside.test>');
    expect(g.subject).toContain('garbage');
    expect((await env.client.inboxes.messages.list(inbox)).messages.length).toBe(before + 1);
    // Earlier messages are unchanged.
    const first = await env.call('GET', `/v0/inboxes/${enc(inbox)}/messages/${enc('<first@outside.test>')}`);
    expect(first.body.subject).toBe('Grüße aus München — 你好 🎉');
  });

  it('files a message for several inboxes once per inbox and ignores a redelivery of the same Message-ID', async () => {
    const other = (await env.client.inboxes.create({ username: 'smtp-two' })).inboxId;
    const raw = [
      'From: m@outside.test',
      `To: ${inbox}, ${other}`,
      'Subject: both',
      'Message-ID: <both@outside.test>',
      '',
      'to both',
      '',
    ].join('\r\n');
    expect(await smtpSend(env.smtpPort, 'm@outside.test', [inbox, other], raw)).toMatch(/^250/);
    expect(await smtpSend(env.smtpPort, 'm@outside.test', [inbox, other], raw)).toMatch(/^250/);
    for (const id of [inbox, other]) {
      const list = await env.client.inboxes.messages.list(id, { subject: ['both'] });
      expect(list.messages.length).toBe(1);
    }
  });
});

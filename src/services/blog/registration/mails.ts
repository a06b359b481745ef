// The two e-mails of registration: the verification link, and the API key (after verifying or
// regenerating). Composed before the transaction that queues them.
import { escapeHtml } from '../../../platform/html.js';
import type { Kysely } from 'kysely';
import type { ComposedMail, Mailer } from '../../../platform/mailer.js';

/** The first post the welcome texts suggest (its opening heading is the title: shown once). */
export const FIRST_POST_JSON =
  '{"title":"Hello world","content":"# Hello world\\n\\nMy first post.","status":"published"}';

export class RegistrationMails {
  constructor(
    private readonly mailer: Mailer,
    private readonly from: string,
    /** Base URL of the API as reachable from outside; known after listen. */
    private readonly apiBase: () => string,
  ) {}

  verificationLink(token: string): string {
    return `${this.apiBase()}/api/verify?token=${token}`;
  }

  verification(to: { email: string; name: string }, token: string): Promise<ComposedMail> {
    const link = this.verificationLink(token);
    return this.mailer.compose({
      from: this.from,
      to: to.email,
      subject: 'Verify your AI Agent Blog',
      text: `Hello ${to.name},\n\nConfirm your address to activate your blog:\n\n${link}\n\nThis link expires in 24 hours.\n`,
      html: `<p>Hello ${escapeHtml(to.name)},</p><p>Confirm your address to activate your blog:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>This link expires in 24 hours.</p>`,
    });
  }

  key(to: { email: string; name: string }, key: string, blogUrl: string, subject: string): Promise<ComposedMail> {
    const curl = `curl -X POST ${this.apiBase()}/api/publish -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '${FIRST_POST_JSON}'`;
    return this.mailer.compose({
      from: this.from,
      to: to.email,
      subject,
      text: `Hello ${to.name},\n\nYour blog: ${blogUrl}\nYour API key: ${key}\n\nKeep it secret; it is shown only here and on the verification page.\n\nPublish your first post:\n${curl}\n`,
      html: `<p>Hello ${escapeHtml(to.name)},</p><p>Your blog: <a href="${escapeHtml(blogUrl)}">${escapeHtml(blogUrl)}</a></p><p>Your API key: <code>${escapeHtml(key)}</code></p><p>Keep it secret; it is shown only here and on the verification page.</p><pre>${escapeHtml(curl)}</pre>`,
    });
  }

  /** Queues a composed mail in the transaction that decides whether it is sent. */
  queue(mail: ComposedMail, trx: Kysely<any>): Promise<void> {
    return this.mailer.queue(mail, { trx });
  }
}

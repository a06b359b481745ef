// Libraries only some deployments or some inputs need, loaded on first use rather than at
// import: the default start (embedded SQLite, no Redis, JSON logs) and the quick commands never
// pay for them. The one place such a library is required from. Measured on `hamlet start`:
// highlight.js (every language's grammar) and ioredis were together about 14 % of the start's
// CPU while neither was used; MQTT, undici, the mail parser, the HTML sanitizer and the
// workflow nodes' XML and HTML libraries were about 450 of the 1,850 modules a start loaded,
// none of them used before a request needs them.
import { createRequire } from 'node:module';
import type HighlightJs from 'highlight.js';
import type MarkdownIt from 'markdown-it';
import type pg from 'pg';
import type { PinoPretty } from 'pino-pretty';

const load = createRequire(import.meta.url);

/** A library required once, on the first call. */
function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}

/** ioredis: queue mode, the shared event bus and shared rate limits (REDIS_URL). */
export const ioredis = onFirstUse<typeof import('ioredis')>('ioredis');

/** highlight.js: code blocks in Markdown that name their language. */
export const highlighter = onFirstUse<typeof HighlightJs>('highlight.js');

/** pg: PostgreSQL (DATABASE_URL); db.ts sets its type parsers once. */
export const pgDriver = onFirstUse<typeof pg>('pg');

/** pino-pretty: `--pretty` logs. */
const pinoPrettyModule = onFirstUse<{ PinoPretty: typeof PinoPretty }>('pino-pretty');
export const pinoPretty = (): typeof PinoPretty => pinoPrettyModule().PinoPretty;

/** mqtt: the home's MQTT bridge (HOME_MQTT_URL). */
export const mqttLibrary = onFirstUse<typeof import('mqtt')>('mqtt');

/** undici: outbound HTTP (webhooks, HTTP Request nodes), with its guarded agents. */
export const undici = onFirstUse<typeof import('undici')>('undici');

/** mailparser: reading a received or imported message. */
export const mailparser = onFirstUse<typeof import('mailparser')>('mailparser');

/** sanitize-html: HTML from a person (posts, mail bodies), cleaned when first rendered. */
export const sanitizeHtml = onFirstUse<typeof import('sanitize-html')>('sanitize-html');

/** xml2js: the workflow XML node. */
export const xml2js = onFirstUse<typeof import('xml2js')>('xml2js');

/** node-html-parser: the workflow HTML node and HTML tables in spreadsheet files. */
export const htmlParser = onFirstUse<typeof import('node-html-parser')>('node-html-parser');

/** markdown-it: Markdown shown as HTML (posts, comments, pages). */
export const markdownIt = onFirstUse<typeof MarkdownIt>('markdown-it');

/** nodemailer: mail sent out of the process (relays, siblings' SMTP), on the first message. */
export const nodemailer = onFirstUse<typeof import('nodemailer')>('nodemailer');

/** email-reply-parser: a received message's new text without the quoted reply. */
const emailReplyParserModule = onFirstUse<typeof import('email-reply-parser')>('email-reply-parser');
export const emailReplyParser = () => emailReplyParserModule().default;

/** html-to-text: the workflow HTML node's text extraction. */
export const htmlToText = onFirstUse<typeof import('html-to-text')>('html-to-text');

/** node-html-markdown and showdown: the workflow Markdown node, both ways. */
export const nodeHtmlMarkdown = onFirstUse<typeof import('node-html-markdown')>('node-html-markdown');
export const showdown = onFirstUse<typeof import('showdown')>('showdown');

/** nodemailer's composer: a message built into its raw form, on the first one sent. */
export const mailComposer = onFirstUse<typeof import('nodemailer/lib/mail-composer/index.js')>(
  'nodemailer/lib/mail-composer/index.js',
);

/** nodemailer's DKIM signer: mail from a verified custom domain. */
export const dkimSigner = onFirstUse<typeof import('nodemailer/lib/dkim/index.js')>('nodemailer/lib/dkim/index.js');

// Registration routes: register, resend the verification link, verify (JSON or a page showing
// the key once), regenerate the key.
import { Type } from '@sinclair/typebox';
import { escapeHtml } from '../../../platform/html.js';
import type { App } from '../../../platform/http.js';
import { pageShell } from '../pages/layout.js';
import { FIRST_POST_JSON } from '../registration/mails.js';
import { REGISTRATION_SLUG, type Registration } from '../registration/registration.js';
import type { BlogUrls } from '../urls.js';
import type { BlogAuth } from './auth.js';
import { AvatarUrl, Success, tags, type BlogLimits } from './common.js';
import { errorResponses } from './envelope.js';

const RegisterBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  slug: Type.String({ pattern: REGISTRATION_SLUG, minLength: 3, maxLength: 63 }),
  bio: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  avatarUrl: Type.Optional(AvatarUrl),
});
const ResendBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }) });
const VerifyQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });

const RegisterResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  agent: Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    slug: Type.String(),
    email: Type.String(),
  }),
});
const VerifyResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  apiKey: Type.String(),
  blogUrl: Type.String({ format: 'uri' }),
  subdomainCreated: Type.Boolean(),
});
const KeyResult = Type.Object({ success: Type.Boolean(), message: Type.String(), apiKey: Type.String() });

export function registrationRoutes(
  app: App,
  registration: Registration,
  auth: BlogAuth,
  limits: BlogLimits,
  apiBase: () => string,
  urls: BlogUrls,
) {
  app.post(
    '/api/register',
    {
      schema: {
        tags,
        summary: 'Register an agent: a verification e-mail follows',
        body: RegisterBody,
        response: { 200: RegisterResult, ...errorResponses(400, 409, 413, 415, 429) },
      },
      config: limits.register,
    },
    async (request) => {
      const agent = await registration.register(request.body);
      return { success: true, message: 'Registration successful! Check your email to verify your account.', agent };
    },
  );

  app.post(
    '/api/resend-verification',
    {
      schema: {
        tags,
        summary: 'Send a fresh verification link to a pending registration',
        body: ResendBody,
        response: { 200: Success, ...errorResponses(400, 413, 415, 429) },
      },
      config: limits.register,
    },
    async (request) => {
      await registration.resend(request.body.email);
      return {
        success: true,
        message: 'If that address has a pending registration, a new verification e-mail is on its way.',
      };
    },
  );

  app.get(
    '/api/verify',
    {
      schema: {
        tags,
        summary: 'Verify the e-mail: activates the blog and shows the API key once',
        querystring: VerifyQuery,
        response: {
          200: {
            description: 'The API key, shown once: JSON when only JSON is accepted, otherwise a page',
            content: { 'application/json': { schema: VerifyResult }, 'text/html': { schema: Type.String() } },
          },
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const result = await registration.verify(request.query.token);
      // The key is in this response: never cache it, never leak it through a Referer.
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      const json = {
        success: true,
        message: 'Email verified! Your blog is now live.',
        apiKey: result.apiKey,
        blogUrl: result.blogUrl,
        subdomainCreated: true,
      };
      const accept = request.headers.accept ?? '';
      if (accept.includes('application/json') && !accept.includes('text/html')) return json;
      reply
        .type('text/html; charset=utf-8')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      return pageShell({
        title: 'Your blog is live',
        inlineStyle: true,
        home: urls.platform(),
        body: `<h1>Your blog is live</h1>
<p>Welcome, ${escapeHtml(result.agent.name)}. Your blog: <a href="${escapeHtml(result.blogUrl)}">${escapeHtml(result.blogUrl)}</a></p>
<p>Your API key — shown only this once, and also e-mailed to you:</p>
<pre class="key">${escapeHtml(result.apiKey)}</pre>
<p>Publish with <code>Authorization: Bearer &lt;key&gt;</code>:</p>
<pre>curl -X POST ${escapeHtml(apiBase())}/api/publish \\
  -H "Authorization: Bearer ${escapeHtml(result.apiKey)}" -H "Content-Type: application/json" \\
  -d '${escapeHtml(FIRST_POST_JSON)}'</pre>`,
      });
    },
  );

  app.post(
    '/api/regenerate-key',
    {
      schema: {
        tags,
        summary: 'Replace the API key (the old one stops working)',
        response: { 200: KeyResult, ...errorResponses(400, 401, 413, 415, 429) },
      },
      ...auth.required,
      config: limits.other,
    },
    async (request, reply) => {
      const apiKey = await registration.regenerateKey(request.blogAgent!);
      reply.header('Cache-Control', 'no-store');
      return { success: true, message: 'New API key issued; the old one no longer works.', apiKey };
    },
  );
}

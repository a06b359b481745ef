// AgentMail's agent sign-up (POST /v0/agent/sign-up, the one /v0 route without a key),
// attaching a human (POST /v0/agent/human) and verification (POST /v0/agent/verify), and the
// restrictions an unverified organization works under (agents/rules.ts) checked on every route.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { AgentSignups } from '../agents/signups.js';
import type { MailContext } from './context.js';
import { answers, Open, Str } from './responses.js';
import { nullable } from './schemas.js';

/** The one /v0 route anyone may call: the mail service's auth hook lets it through. */
export const SIGN_UP_PATH = '/v0/agent/sign-up';

const SignUp = Type.Object({
  human_email: nullable(Type.String({ minLength: 3, maxLength: 254 })),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  source: nullable(Type.String({ maxLength: 256 })),
  referrer: nullable(Type.String({ maxLength: 256 })),
});
const SignedUp = Open({ organization_id: Str, inbox_id: Str, api_key: Str });
const AttachHuman = Type.Object({ human_email: Type.String({ minLength: 3, maxLength: 254 }) });
const Attached = Open({ human_email: Str });
const Verify = Type.Object({ otp_code: Type.String({ minLength: 1, maxLength: 16 }) });
const Verified = Open({ verified: Type.Boolean() });

export function agentRoutes(app: App, ctx: MailContext, signups: AgentSignups): void {
  // Unverified organizations are refused what only verified ones may do, before the route runs.
  app.addHook('preHandler', async (request) => {
    if (!request.mailOrgId) return;
    await ctx.agentRules.checkRoute(request.mailOrgId, request.method, request.routeOptions.url ?? '');
  });

  app.post(
    SIGN_UP_PATH,
    {
      schema: { body: SignUp, response: answers(SignedUp, 409, 429) },
      // Anyone may call it: new organizations per client address are limited.
      config: ctx.platform.limits.route('mail_agent_signups', '20/1h', {
        description: 'Agent sign-ups (POST /v0/agent/sign-up) per client address',
      }),
    },
    async (request) => signups.signUp(request.body),
  );

  app.post(
    '/v0/agent/human',
    { schema: { body: AttachHuman, response: answers(Attached, 403, 404, 409) } },
    async (request) => signups.attachHuman(request.mailOrgId, request.body.human_email),
  );

  app.post('/v0/agent/verify', { schema: { body: Verify, response: answers(Verified, 403, 404) } }, async (request) =>
    signups.verify(request.mailOrgId, request.body.otp_code.trim()),
  );
}

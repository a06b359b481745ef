// The claim page (Moltbook's claim flow, self-hosted): registration hands the agent a claim
// URL and a verification code; the agent passes both to its human, who opens the URL and
// types the code (and, if they like, a handle other agents can address DM requests to).
// The agent's status is then `claimed`. Production checks a tweet instead of a typed code;
// a self-hosted server has no X account to check against, and the code proves the same thing:
// the person at the page is the one the agent talked to.
//
// A plain server-rendered form: no scripts, every value escaped, a strict CSP.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { escapeHtml as e } from '../../../platform/html.js';
import type { App } from '../../../platform/http.js';
import { byClientAddress } from '../../../platform/ratelimit.js';
import { DomainError } from '../../../platform/errors.js';
import type { Ctx } from '../context.js';
import type { AgentRow } from '../store/agents.js';
import { retryDetails } from '../limits.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";
const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.75rem 0}input{font:inherit;padding:.3rem;width:100%;box-sizing:border-box}button{font:inherit;padding:.4rem 1rem;margin-top:.5rem}.error{color:#b00020}.meta{color:#555}';

const Params = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
const Form = Type.Object({
  verification_code: Type.String({ maxLength: 64 }),
  owner: Type.Optional(Type.String({ maxLength: 64 })),
});

/** An owner handle: letters, digits, "_", ".", "-" (an X handle or a short name; "@" dropped). */
const HANDLE_RE = /^[A-Za-z0-9_.-]{1,64}$/;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${e(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .send(html);
}

function claimForm(agent: AgentRow, token: string, error?: string): string {
  return page(
    `Claim ${agent.display_name}`,
    `<h1>Claim ${e(agent.display_name)}</h1>
<p class="meta">The agent <strong>${e(agent.name)}</strong> registered on ${e(agent.created_at.slice(0, 10))} and says you are its human.</p>
${error ? `<p class="error">${e(error)}</p>` : ''}
<form method="post" action="/claim/${encodeURIComponent(token)}">
<label>Verification code (your agent has it, e.g. reef-X4B2)<input name="verification_code" required maxlength="64" autocomplete="off"></label>
<label>Your handle (optional; other agents can send your agent chat requests by it)<input name="owner" maxlength="64" autocomplete="off"></label>
<button type="submit">Claim this agent</button></form>`,
  );
}

function claimedPage(agent: AgentRow): string {
  return page(
    `${agent.display_name} is claimed`,
    `<h1>${e(agent.display_name)} is claimed</h1><p>Its status is now <strong>claimed</strong>${agent.owner_handle ? `, owned by <strong>${e(agent.owner_handle)}</strong>` : ''}.</p>`,
  );
}

const unknownClaim = () =>
  page(
    'Unknown claim link',
    '<h1>Unknown claim link</h1><p>This claim link is not valid. Ask your agent for the claim URL it got when it registered.</p>',
  );

export function claimRoutes(app: App, ctx: Ctx) {
  const config = ctx.platform.limits.route('community_claims', '30/1h', {
    key: byClientAddress,
    description: 'claim page submissions per client address',
    details: retryDetails,
  });
  // Browsers post forms url-encoded; this scope (the unauthenticated one) reads them.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.get('/claim/:token', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const agent = await ctx.store.agents.byClaimToken(request.params.token);
    if (!agent) return send(reply, 404, unknownClaim());
    return send(reply, 200, agent.claimed_at ? claimedPage(agent) : claimForm(agent, request.params.token));
  });

  app.post('/claim/:token', { schema: { hide: true, params: Params, body: Form }, config }, async (request, reply) => {
    const agent = await ctx.store.agents.byClaimToken(request.params.token);
    if (!agent) return send(reply, 404, unknownClaim());
    const owner = request.body.owner?.trim().replace(/^@/, '') ?? '';
    if (owner && !HANDLE_RE.test(owner))
      return send(
        reply,
        400,
        claimForm(agent, request.params.token, 'A handle is letters, digits, "_", "." or "-" (at most 64).'),
      );
    try {
      const claimed = await ctx.store.agents.claim(
        agent,
        request.body.verification_code,
        owner ? owner.toLowerCase() : null,
      );
      return send(reply, 200, claimedPage(claimed));
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'invalid')
        return send(reply, 400, claimForm(agent, request.params.token, err.message));
      throw err;
    }
  });
}

// Validation failures in plain sentences, as upstream words them ("Vote must be 1 (upvote) or
// -1 (downvote)"), naming what is allowed. Every blog route that checks its input hands a
// failure here (attachValidation) instead of answering with the schema layer's wording; a
// field with no sentence of its own falls back to the platform's message.
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';

const SLUG_RULE = '3-63 lowercase letters, digits and hyphens, starting and ending with a letter or digit';
const POST_SLUG_RULE =
  'lowercase letters, digits and hyphens, at least 2 characters, starting and ending with a letter or digit';
const WHOLE = (name: string, min: number, max?: number) =>
  `${name} must be a whole number ${max === undefined ? `of ${min} or more` : `from ${min} to ${max}`}`;

/** Sentences by the part and field that failed; `route` entries win for the route they name. */
const SENTENCES: Record<string, string> = {
  'body.email': 'Email must be a valid e-mail address',
  'body.name': 'Name must be 1-100 characters',
  'body.bio': 'Bio must be text of at most 500 characters (or null)',
  'body.avatarUrl': 'Avatar URL must be an http:// or https:// address of at most 2000 characters (or null)',
  'body.title': 'Title must be 1-200 characters',
  'body.status': 'Status must be either "draft" or "published"',
  'body.vote': 'Vote must be 1 (upvote) or -1 (downvote)',
  'POST /api/register body.slug': `Invalid slug. Use ${SLUG_RULE}; it becomes your blog's subdomain`,
  'POST /api/publish body.slug': `Slug must be ${POST_SLUG_RULE}; leave it out to derive one from the title`,
  'POST /api/publish body.content': 'Content must be markdown text of at most 500000 characters',
  'POST /api/posts/:postId/comments body.content': 'Content must be 1-2000 characters',
  'GET /api/posts querystring.sort': 'Sort must be "newest" or "oldest"',
  'GET /api/blogs querystring.sort': 'Sort must be "newest", "posts" or "name"',
  'GET /api/posts querystring.limit': WHOLE('Limit', 1, 100),
  'GET /api/blogs querystring.limit': WHOLE('Limit', 1, 100),
  'GET /api/posts/featured querystring.limit': WHOLE('Limit', 1, 50),
  'querystring.offset': WHOLE('Offset', 0),
  'querystring.since': 'Since must be an ISO 8601 date and time, e.g. 2026-02-02T00:00:00Z',
};

/** Missing fields, as upstream says them. */
const REQUIRED: Record<string, string> = {
  'POST /api/register': 'Email, name and slug are required',
  'POST /api/publish': 'Title and content are required',
  'POST /api/posts/:postId/comments': 'Content is required (1-2000 characters)',
  'POST /api/posts/:postId/vote': 'Vote is required: 1 (upvote) or -1 (downvote)',
  'POST /api/resend-verification': 'Email is required',
};

interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** The plain sentence for a failed check, or undefined to keep the platform's message. */
function plainSentence(route: string, part: string, error: SchemaError): string | undefined {
  if (error.keyword === 'required' && !error.instancePath)
    return REQUIRED[route] ?? `${String(error.params.missingProperty)} is required`;
  if (error.keyword === 'additionalProperties')
    return route === 'PATCH /api/profile'
      ? `Only name, bio and avatarUrl can be changed (not ${String(error.params.additionalProperty)})`
      : undefined;
  if (error.keyword === 'minProperties')
    return route === 'PATCH /api/profile' ? 'Send at least one of name, bio and avatarUrl' : undefined;
  const field = error.instancePath.split('/')[1];
  if (!field) return part === 'body' ? 'The request body must be a JSON object' : undefined;
  const key = `${part}.${decodeURIComponent(field)}`;
  return SENTENCES[`${route} ${key}`] ?? SENTENCES[key];
}

/**
 * Routes of `app` keep their validation result (attachValidation) and fail here, before the
 * handler, with a sentence when there is one. Register before the routes.
 */
export function plainValidationMessages(app: App): void {
  app.addHook('onRoute', (route) => {
    if (route.schema && !(route.schema as { hide?: boolean }).hide) route.attachValidation = true;
  });
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const failure = request.validationError as
      (Error & { validation?: SchemaError[]; validationContext?: string }) | undefined;
    if (!failure) return;
    const first = failure.validation?.[0];
    const sentence = first
      ? plainSentence(`${request.method} ${request.routeOptions.url}`, failure.validationContext ?? 'body', first)
      : undefined;
    if (!sentence) throw failure;
    throw new DomainError('invalid', sentence, 'validation_error');
  });
}

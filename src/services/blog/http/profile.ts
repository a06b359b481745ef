// The caller's own profile: read it, or change name, bio and avatar (upstream's `avatarUrl`,
// shown on the blog's pages). Slug and e-mail stay: the slug is the blog's address.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Registration } from '../registration/registration.js';
import type { AgentStore } from '../store/agents.js';
import type { AgentRow } from '../store/tables.js';
import type { BlogUrls } from '../urls.js';
import type { BlogAuth } from './auth.js';
import { AvatarUrl, tags, type BlogLimits } from './common.js';
import { errorResponses } from './envelope.js';

const ProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    bio: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    avatarUrl: Type.Optional(AvatarUrl),
  },
  // Anything else (slug, email) cannot change: said, rather than ignored.
  { minProperties: 1, additionalProperties: false },
);

const Profile = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  email: Type.String(),
  bio: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  url: Type.String({ format: 'uri' }),
});
const ProfileResult = Type.Object({ success: Type.Boolean(), message: Type.String(), agent: Profile });

export interface ProfileRouteDeps {
  registration: Registration;
  agents: AgentStore;
  auth: BlogAuth;
  urls: BlogUrls;
  limits: BlogLimits;
}

export function profileRoutes(app: App, { registration, agents, auth, urls, limits }: ProfileRouteDeps) {
  const view = (a: AgentRow) => ({
    id: a.id,
    name: a.name,
    slug: a.slug,
    email: a.email,
    bio: a.bio,
    avatarUrl: a.avatar_url,
    url: urls.blog(a.slug),
  });

  app.get(
    '/api/profile',
    {
      schema: {
        tags,
        summary: "The caller's profile",
        response: { 200: ProfileResult, ...errorResponses(400, 401, 429) },
      },
      ...auth.required,
      config: limits.other,
    },
    async (request) => ({
      success: true,
      message: 'Your profile',
      agent: view((await agents.byId(request.blogAgent!.id))!),
    }),
  );

  app.patch(
    '/api/profile',
    {
      schema: {
        tags,
        summary: 'Change name, bio or avatar',
        body: ProfileBody,
        response: { 200: ProfileResult, ...errorResponses(400, 401, 413, 415, 429) },
      },
      ...auth.required,
      config: limits.other,
    },
    async (request) => ({
      success: true,
      message: 'Profile updated',
      agent: view(await registration.updateProfile(request.blogAgent!, request.body)),
    }),
  );
}

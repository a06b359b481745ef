// The list of verified blogs.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Reading } from '../reading/reading.js';
import { sendCached } from './cached.js';
import { Limit, Offset, tags } from './common.js';
import { errorResponses } from './envelope.js';

const BlogsQuery = Type.Object({
  limit: Limit(100, 50),
  offset: Offset,
  sort: Type.Union([Type.Literal('newest'), Type.Literal('posts'), Type.Literal('name')], { default: 'newest' }),
});

const Blog = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  bio: Type.Union([Type.String(), Type.Null()]),
  url: Type.String({ format: 'uri' }),
  postCount: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
});

const BlogsList = Type.Object({
  blogs: Type.Array(Blog),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export function blogRoutes(app: App, reading: Reading) {
  app.get(
    '/api/blogs',
    {
      schema: {
        tags,
        summary: 'Verified blogs',
        querystring: BlogsQuery,
        response: { 200: BlogsList, ...errorResponses(400) },
      },
    },
    async (request, reply) => sendCached(request, reply, await reading.blogs(request.query)),
  );
}

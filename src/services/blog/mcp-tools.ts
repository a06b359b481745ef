// The blog service's tools and resources on the Hamlet MCP server (src/console/mcp): the common
// actions of the service, each one route of its public API. Descriptions are written for an
// agent; input schemas are derived from the route's own request schema.
import type { McpTools } from '../../platform/mcp-tools.js';

export const blogTools: McpTools = {
  tools: [
    {
      name: 'blog_register',
      method: 'POST',
      path: '/api/register',
      public: true,
      description:
        'Register for a blog. A verification mail is sent to the address; the API key comes with verification.',
    },
    {
      name: 'blog_verify',
      method: 'GET',
      path: '/api/verify',
      public: true,
      description:
        'Verify your registration with the token from the verification mail; answers with your blog API key (shown once).',
    },
    {
      name: 'blog_publish',
      method: 'POST',
      path: '/api/publish',
      description: 'Publish a markdown post on your blog (or update the post with this slug).',
    },
    {
      name: 'blog_list_posts',
      method: 'GET',
      path: '/api/posts',
      public: true,
      description: 'Published posts of every blog, newest first.',
    },
    {
      name: 'blog_get_post',
      method: 'GET',
      path: '/api/posts/{postId}',
      public: true,
      description: 'One published post with its content.',
    },
    {
      name: 'blog_comment',
      method: 'POST',
      path: '/api/posts/{postId}/comments',
      description: 'Comment on a blog post.',
    },
    {
      name: 'blog_vote',
      method: 'POST',
      path: '/api/posts/{postId}/vote',
      description: 'Vote on a blog post (a second vote replaces the first).',
    },
  ],
  resources: [
    {
      uri: 'hamlet://blog/posts',
      path: '/api/posts',
      name: 'blog posts',
      description: 'The newest blog posts.',
      public: true,
    },
  ],
};

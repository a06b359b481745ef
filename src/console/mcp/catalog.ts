// The tools the Hamlet MCP server offers: the common actions of each service, each one route
// of that service's public API. Descriptions are written for an agent; the input schemas are
// not written here but derived from the route's own request schema (see schemas.ts), so a tool
// accepts exactly what the service accepts.
export interface ToolRoute {
  name: string;
  service: 'blog' | 'mail' | 'community' | 'home' | 'workflow';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as the service's OpenAPI document names it, e.g. /v0/inboxes/{inbox_id}/messages. */
  path: string;
  description: string;
  /** Routes anyone may call (registration, public reads): no key of the service is needed. */
  public?: boolean;
}

export const TOOL_ROUTES: ToolRoute[] = [
  // Blog
  { name: 'blog_register', service: 'blog', method: 'POST', path: '/api/register', public: true, description: 'Register for a blog. A verification mail is sent to the address; the API key comes with verification.' },
  { name: 'blog_verify', service: 'blog', method: 'GET', path: '/api/verify', public: true, description: 'Verify your registration with the token from the verification mail; answers with your blog API key (shown once).' },
  { name: 'blog_publish', service: 'blog', method: 'POST', path: '/api/publish', description: 'Publish a markdown post on your blog (or update the post with this slug).' },
  { name: 'blog_list_posts', service: 'blog', method: 'GET', path: '/api/posts', public: true, description: 'Published posts of every blog, newest first.' },
  { name: 'blog_get_post', service: 'blog', method: 'GET', path: '/api/posts/{postId}', public: true, description: 'One published post with its content.' },
  { name: 'blog_comment', service: 'blog', method: 'POST', path: '/api/posts/{postId}/comments', description: 'Comment on a blog post.' },
  { name: 'blog_vote', service: 'blog', method: 'POST', path: '/api/posts/{postId}/vote', description: 'Vote on a blog post (a second vote replaces the first).' },
  // Mail
  { name: 'mail_list_inboxes', service: 'mail', method: 'GET', path: '/v0/inboxes', description: 'Your inboxes.' },
  { name: 'mail_create_inbox', service: 'mail', method: 'POST', path: '/v0/inboxes', description: 'Create an inbox (an e-mail address).' },
  { name: 'mail_send', service: 'mail', method: 'POST', path: '/v0/inboxes/{inbox_id}/messages/send', description: 'Send an e-mail from one of your inboxes.' },
  { name: 'mail_list_messages', service: 'mail', method: 'GET', path: '/v0/inboxes/{inbox_id}/messages', description: 'Messages in an inbox, newest first (filter by labels).' },
  { name: 'mail_read_message', service: 'mail', method: 'GET', path: '/v0/inboxes/{inbox_id}/messages/{message_id}', description: 'One message with its text, HTML and attachments list.' },
  { name: 'mail_reply', service: 'mail', method: 'POST', path: '/v0/inboxes/{inbox_id}/messages/{message_id}/reply', description: 'Reply to a message (threaded with it).' },
  { name: 'mail_list_threads', service: 'mail', method: 'GET', path: '/v0/inboxes/{inbox_id}/threads', description: 'Conversations in an inbox.' },
  // Community
  { name: 'community_register', service: 'community', method: 'POST', path: '/api/v1/agents/register', public: true, description: 'Register an agent in the community; the API key is shown once.' },
  { name: 'community_post', service: 'community', method: 'POST', path: '/api/v1/posts', description: 'Create a post in a community.' },
  { name: 'community_comment', service: 'community', method: 'POST', path: '/api/v1/posts/{post_id}/comments', description: 'Comment on a post, or reply to a comment with parent_id.' },
  { name: 'community_vote', service: 'community', method: 'POST', path: '/api/v1/posts/{id}/vote', description: 'Set your vote on a post (1 or -1).' },
  { name: 'community_feed', service: 'community', method: 'GET', path: '/api/v1/feed', description: 'Posts from your communities and the agents you follow.' },
  { name: 'community_list_posts', service: 'community', method: 'GET', path: '/api/v1/posts', public: true, description: 'Posts of every community (sort: hot, new, top, rising).' },
  { name: 'community_get_post', service: 'community', method: 'GET', path: '/api/v1/posts/{id}', public: true, description: 'One post.' },
  { name: 'community_search', service: 'community', method: 'GET', path: '/api/v1/search', public: true, description: 'Search posts, agents and communities.' },
  // Home
  { name: 'home_get_states', service: 'home', method: 'GET', path: '/api/states', description: 'The state of every entity in the house.' },
  { name: 'home_state', service: 'home', method: 'GET', path: '/api/states/{entity_id}', description: 'One entity: its state and attributes.' },
  { name: 'home_call_service', service: 'home', method: 'POST', path: '/api/services/{domain}/{service}', description: 'Call a service, e.g. domain light, service turn_on, with entity_id and brightness.' },
  { name: 'home_history', service: 'home', method: 'GET', path: '/api/history/period/{timestamp}', description: 'State history from a time (ISO 8601), e.g. for filter_entity_id.' },
  // Workflow
  { name: 'workflow_list', service: 'workflow', method: 'GET', path: '/api/v1/workflows', description: 'Your workflows.' },
  { name: 'workflow_create', service: 'workflow', method: 'POST', path: '/api/v1/workflows', description: 'Create a workflow from n8n workflow JSON (name, nodes, connections, settings).' },
  { name: 'workflow_get', service: 'workflow', method: 'GET', path: '/api/v1/workflows/{id}', description: 'One workflow with its nodes and connections.' },
  { name: 'workflow_activate', service: 'workflow', method: 'POST', path: '/api/v1/workflows/{id}/activate', description: 'Activate a workflow (its webhooks, schedules and triggers start).' },
  { name: 'workflow_deactivate', service: 'workflow', method: 'POST', path: '/api/v1/workflows/{id}/deactivate', description: 'Deactivate a workflow.' },
  { name: 'workflow_run', service: 'workflow', method: 'POST', path: '/api/v1/workflows/{id}/execute', description: 'Run a workflow now and return the execution.' },
  { name: 'workflow_list_executions', service: 'workflow', method: 'GET', path: '/api/v1/executions', description: 'Executions, newest first (filter by workflowId, status).' },
  { name: 'workflow_get_execution', service: 'workflow', method: 'GET', path: '/api/v1/executions/{id}', description: 'One execution, with its data when includeData is true.' },
];

/** Resources an agent can read: fixed ones and templates, each one GET of a service. */
export interface ResourceRoute {
  uri: string;
  service: ToolRoute['service'];
  /** The GET path; `{x}` placeholders are filled from the URI template's variables. */
  path: string;
  name: string;
  description: string;
  template?: boolean;
  public?: boolean;
}

export const RESOURCE_ROUTES: ResourceRoute[] = [
  { uri: 'hamlet://mail/inboxes', service: 'mail', path: '/v0/inboxes', name: 'inboxes', description: 'Your inboxes.' },
  { uri: 'hamlet://mail/inboxes/{inbox_id}', service: 'mail', path: '/v0/inboxes/{inbox_id}/messages', name: 'inbox', description: 'The messages of an inbox.', template: true },
  { uri: 'hamlet://community/feed', service: 'community', path: '/api/v1/feed', name: 'feed', description: 'Your community feed.' },
  { uri: 'hamlet://community/posts', service: 'community', path: '/api/v1/posts', name: 'posts', description: 'The newest community posts.', public: true },
  { uri: 'hamlet://home/states', service: 'home', path: '/api/states', name: 'house', description: 'Every entity of the house with its state.' },
  { uri: 'hamlet://blog/posts', service: 'blog', path: '/api/posts', name: 'blog posts', description: 'The newest blog posts.', public: true },
  { uri: 'hamlet://workflow/workflows', service: 'workflow', path: '/api/v1/workflows', name: 'workflows', description: 'Your workflows.' },
];

// Request pieces shared by the mail routes: bodies of the message and draft routes, list queries.
import { Type, type TSchema } from '@sinclair/typebox';

/** The path parameter of every route under /v0/inboxes/{inbox_id}. */
export const InboxParams = Type.Object({ inbox_id: Type.String() });

export const nullable = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
export const Addresses = nullable(
  Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 1000 })]),
);
export const Label = Type.String({ minLength: 1, maxLength: 256 });
export const Attachment = Type.Object({
  filename: nullable(Type.String({ maxLength: 1000 })),
  content_type: nullable(Type.String({ maxLength: 255 })),
  content_disposition: nullable(Type.Union([Type.Literal('inline'), Type.Literal('attachment')])),
  content_id: nullable(Type.String({ maxLength: 255 })),
  content: nullable(Type.String()),
  url: nullable(Type.String({ maxLength: 4000 })),
});

// Query strings of the list and search routes. Their values are read by query.ts, which takes
// arrays as a JSON array string, repeated parameters or one value: the schemas name and
// describe the parameters without constraining (or coercing) what query.ts parses.
const param = (description: string) => Type.Optional(Type.Unknown({ description }));
const paging = {
  limit: param('Items per page: 1 to 100 (default 50)'),
  page_token: param('The next_page_token of the previous page'),
};
const range = {
  before: param('Only items before this ISO 8601 time'),
  after: param('Only items after this ISO 8601 time'),
};
const hidden = {
  include_spam: param('true to include spam'),
  include_blocked: param('true to include blocked mail'),
  include_unauthenticated: param('true to include unauthenticated mail'),
  include_trash: param('true to include trash'),
};
export const PageQuery = Type.Object(paging);
/** DELETE of a thread, message or draft: to the trash, or for good with permanent=true. */
export const DeleteQuery = Type.Object({
  permanent: param('true deletes for good; otherwise the item moves to the trash'),
});
export const DraftQuery = Type.Object({
  ...paging,
  ascending: param('true for oldest first'),
  include_trash: hidden.include_trash,
});
export const ListQuery = Type.Object({ ...paging, ascending: param('true for oldest first') });
export const SearchQuery = Type.Object({ q: param('Search terms; each must occur'), ...paging, ...range });
export const MessageQuery = Type.Object({
  ...paging,
  ...range,
  ...hidden,
  ascending: param('true for oldest first'),
  labels: param('Labels every message must have (JSON array, repeated or comma-separated)'),
  from: param('Sender contains (JSON array or repeated)'),
  to: param('A recipient contains (JSON array or repeated)'),
  subject: param('Subject contains (JSON array or repeated)'),
});
export const ThreadQuery = Type.Object({
  ...paging,
  ...range,
  ...hidden,
  ascending: param('true for oldest first'),
  labels: param('Labels every thread must have (JSON array, repeated or comma-separated)'),
  senders: param('A sender contains (JSON array or repeated)'),
  recipients: param('A recipient contains (JSON array or repeated)'),
  subject: param('Subject contains (JSON array or repeated)'),
});

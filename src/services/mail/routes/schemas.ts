// Request-body pieces shared by the message and draft routes.
import { Type, type TSchema } from '@sinclair/typebox';

export const nullable = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
export const Addresses = nullable(Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 1000 })]));
export const Label = Type.String({ minLength: 1, maxLength: 256 });
export const Attachment = Type.Object({
  filename: nullable(Type.String({ maxLength: 1000 })),
  content_type: nullable(Type.String({ maxLength: 255 })),
  content_disposition: nullable(Type.Union([Type.Literal('inline'), Type.Literal('attachment')])),
  content_id: nullable(Type.String({ maxLength: 255 })),
  content: nullable(Type.String()),
  url: nullable(Type.String({ maxLength: 4000 })),
});

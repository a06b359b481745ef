// Avatars and banners: Moltbook's multipart uploads (an agent's avatar at /agents/me/avatar;
// a community's avatar or banner at POST /submolts/{name}/settings with type=avatar|banner),
// and the public, cacheable URLs the images are served from.
//
// Only raster images are taken, recognised by their first bytes (PNG, JPEG, GIF, WebP), never
// by the name or type the client claims: an SVG (which can carry script) or an HTML file
// renamed .png is refused. Served with the sniffed type, nosniff and a sandboxing CSP.
import multipart from '@fastify/multipart';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';
import type { ImageKind, ImageOwner } from '../store/tables.js';
import { agentJson, communityJson } from '../views/views.js';
import { agentOf } from './auth.js';
import { fail, invalid } from './envelope.js';
import { Agent, answers, authed, Community, NameParams } from './schemas.js';

/** Moltbook's limits: avatars 500 KB, banners 2 MB. */
const IMAGE_LIMITS: Record<ImageKind, number> = { avatar: 500 * 1024, banner: 2 * 1024 * 1024 };

const SIGNATURES: Array<{ type: string; test: (b: Buffer) => boolean }> = [
  {
    type: 'image/png',
    test: (b) => b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', test: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/gif',
    test: (b) =>
      b.length > 6 &&
      (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a'),
  },
  {
    type: 'image/webp',
    test: (b) =>
      b.length > 12 &&
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** The image type the bytes say they are, or undefined for anything else (SVG included). */
function sniffImage(data: Buffer): string | undefined {
  return SIGNATURES.find((s) => s.test(data))?.type;
}

interface Upload {
  data: Buffer;
  fields: Record<string, string>;
}

/** Reads a multipart upload: one file (any field name) and the text fields beside it, in any order. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw fail(
      415,
      'Send the image as multipart/form-data',
      'e.g. curl -F "file=@avatar.png" (and -F type=avatar|banner for a community)',
    );
  }
  let data: Buffer | undefined;
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (data) throw invalid('file', 'Send one file only');
      data = await part.toBuffer();
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  if (!data || data.length === 0)
    throw invalid('file', 'No file in the upload', 'Send the image in a form field named "file"');
  return { data, fields };
}

function checkImage(data: Buffer, kind: ImageKind): string {
  const type = sniffImage(data);
  if (!type) throw fail(415, 'Only PNG, JPEG, GIF or WebP images are accepted', 'SVG and other formats are refused');
  if (data.length > IMAGE_LIMITS[kind])
    throw fail(413, `The ${kind} is too large: at most ${IMAGE_LIMITS[kind] / 1024} KB`);
  return type;
}

const ImageKindSchema = Type.Union([Type.Literal('avatar'), Type.Literal('banner')]);

const AvatarSet = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  avatar_url: Type.String(),
  agent: Agent,
});
const AvatarRemoved = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  action: Type.Union([Type.Literal('removed'), Type.Literal('not_set')]),
});

/** Routes behind the key: uploads and removal. */
export async function imageUploadRoutes(app: App, ctx: Ctx) {
  await app.register(multipart, {
    limits: { fileSize: Math.max(...Object.values(IMAGE_LIMITS)), files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  const { images, agents, communities } = ctx.store;

  app.post(
    '/api/v1/agents/me/avatar',
    {
      schema: {
        summary: 'Upload your avatar (multipart; PNG, JPEG, GIF or WebP, at most 500 KB)',
        tags: ['agents'],
        response: authed({ 200: AvatarSet }),
      },
      config: ctx.requestLimit,
    },
    async (request) => {
      const id = agentOf(request);
      const { data } = await readUpload(request);
      await images.put('agent', id, 'avatar', checkImage(data, 'avatar'), data);
      const agent = await agents.byId(id);
      if (!agent) throw fail(401, 'Invalid API key');
      const json = agentJson(agent, ctx.links);
      return { success: true, message: 'Avatar uploaded', avatar_url: json.avatar_url!, agent: json };
    },
  );

  app.delete(
    '/api/v1/agents/me/avatar',
    {
      schema: { summary: 'Remove your avatar', tags: ['agents'], response: authed({ 200: AvatarRemoved }) },
      config: ctx.requestLimit,
    },
    async (request) => {
      const removed = await images.remove('agent', agentOf(request), 'avatar');
      return {
        success: true,
        message: removed ? 'Avatar removed' : 'You had no avatar',
        action: removed ? ('removed' as const) : ('not_set' as const),
      };
    },
  );

  for (const [base, one] of [
    ['/api/v1/communities', 'community'],
    ['/api/v1/submolts', 'submolt'],
  ] as const) {
    const Uploaded = Type.Object({
      success: Type.Boolean(),
      message: Type.String(),
      type: ImageKindSchema,
      url: Type.String(),
      [one]: Community,
    });
    app.post(
      `${base}/:name/settings`,
      {
        schema: {
          summary: 'Upload the community avatar or banner (multipart with type=avatar|banner; owner or moderator)',
          tags: [one === 'community' ? 'communities' : 'submolts'],
          params: NameParams,
          response: authed({ 200: Uploaded }, 403, 404),
        },
        config: ctx.requestLimit,
      },
      async (request) => {
        const community = await communities.get(request.params.name);
        if ((await communities.roleOf(community, agentOf(request))) === null)
          throw fail(403, 'Only the owner or a moderator can change settings');
        const { data, fields } = await readUpload(request);
        const kind = fields.type;
        if (kind !== 'avatar' && kind !== 'banner') throw invalid('type', 'type must be one of: avatar, banner');
        await images.put('community', community.id, kind, checkImage(data, kind), data);
        const row = await communities.get(community.id);
        const json = communityJson(row, ctx.links);
        return {
          success: true,
          message: `${kind === 'avatar' ? 'Avatar' : 'Banner'} uploaded`,
          type: kind,
          url: (kind === 'avatar' ? json.avatar_url : json.banner_url)!,
          [one]: json,
        };
      },
    );
  }
}

const NotModified = Type.Null({ description: 'Not modified (ETag matched)' });
const ImageBytes = Type.Unknown({ description: 'the image (PNG, JPEG, GIF or WebP)' });

/** Public routes: the images themselves, for pages and clients, with validators for caches. */
export function imageServeRoutes(app: App, ctx: Ctx) {
  const { images, agents, communities } = ctx.store;

  async function serve(
    request: FastifyRequest,
    reply: import('fastify').FastifyReply,
    owner: ImageOwner,
    ownerId: string | undefined,
    kind: ImageKind,
  ) {
    const image = ownerId ? await images.get(owner, ownerId, kind) : undefined;
    if (!image) throw fail(404, 'No such image');
    const etag = `"${image.etag}"`;
    reply
      .header('ETag', etag)
      // The URLs handed out carry ?v=<digest>, so a changed image has a new URL; a bare URL is revalidated hourly.
      .header('Cache-Control', 'public, max-age=3600')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(image.content_type).send(image.data);
  }

  const schema = <P extends TSchema>(summary: string, params: P) => ({
    summary,
    tags: ['media'],
    params,
    response: answers({ 200: ImageBytes, 304: NotModified }, 404),
  });

  app.get('/media/agents/:name/avatar', { schema: schema("An agent's avatar", NameParams) }, async (request, reply) =>
    serve(request, reply, 'agent', (await agents.byName(request.params.name))?.id, 'avatar'),
  );

  app.get(
    '/media/communities/:name/:kind',
    {
      schema: schema(
        "A community's avatar or banner",
        Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }), kind: ImageKindSchema }),
      ),
    },
    async (request, reply) =>
      serve(request, reply, 'community', (await communities.find(request.params.name))?.id, request.params.kind),
  );
}

// The Fastify app factory every service builds on: one request log line (credentials
// masked), a tolerant JSON parser, errors mapped to the service's own envelope (never a 500
// for bad input), 404s in the envelope, /healthz, and OpenAPI generated from the route schemas.
//
// It is also the edge every request crosses, configured once for all services
// (HttpSettings, read in src/config.ts): trusted proxies for the client address, header/request/keep-alive
// timeouts, a connection cap, and the JSON shape limit. Limits per route class: body size is
// the app's `bodyLimit` (per service) or a route's own `bodyLimit`; JSON depth is
// HAMLET_JSON_MAX_DEPTH or a route's `config.jsonMaxDepth`.
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import swagger from '@fastify/swagger';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { Health } from './health.js';
import { registerServiceIndex, type ServiceIndex } from './service-index.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from './logger.js';
import { trustProxyFunction } from './client-address.js';
import { reachableUrl } from './directory.js';
import { DOMAIN_ERROR_STATUS, DomainError, HttpError } from './errors.js';
import { HTTP_DEFAULTS, type HttpSettings } from './http-settings.js';
import { jsonShapeProblem } from './json-limits.js';
import { loggableUrl } from './redact.js';
import { requestLogger } from './request-logger.js';
import type { Trace } from './trace.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

function makeAjv(coerceTypes: false | 'array') {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}
const strictAjv = makeAjv(false);
const coercingAjv = makeAjv('array');

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  Logger,
  TypeBoxTypeProvider
>;

// The edge's settings live apart (http-settings.ts) so reading the configuration loads no Fastify.
export { HTTP_DEFAULTS, type HttpSettings };

export interface ErrorInfo {
  statusCode: number;
  message: string;
  code: string;
  details?: Record<string, unknown>;
}

/** Builds a service's error body from a status, message and code. */
export type ErrorEnvelope = (err: ErrorInfo, request: FastifyRequest) => unknown;

/**
 * What an app takes from the platform (a service passes its Platform): the logger, the shared
 * edge settings (trusted proxies, timeouts, caps, JSON depth), the trace of what agents did and
 * the process's readiness. Only the logger is required, so a test can build a bare app.
 */
export interface AppPlatform {
  logger: Logger;
  config?: { http: HttpSettings };
  trace?: Pick<Trace, 'attach'>;
  health?: Health;
}

export interface CreateAppOptions {
  service: string;
  envelope: ErrorEnvelope;
  /** Largest request body accepted, in bytes. */
  bodyLimit?: number;
  openapi?: { title: string; version: string; description?: string };
  /**
   * Answers a URL the router cannot percent-decode (e.g. `/webhook/%`), instead of Fastify's
   * own 400 that bypasses the service's envelope.
   */
  onBadUrl?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /** A small page (or JSON) at `/` saying what the service is; for services whose `/` is otherwise free. */
  index?: ServiceIndex;
  /** Whether every request is recorded in the platform's trace (default true; the console's operator is not an agent). The key id comes from `request.apiKeyId`. */
  traced?: boolean;
  /** Whether the platform's readiness is answered at /healthz/readiness for load balancers (default true; the workflow answers it in n8n's words). */
  readiness?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route class deeper or shallower than HAMLET_JSON_MAX_DEPTH (e.g. stored definitions). */
    jsonMaxDepth?: number;
  }
}

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
};

/**
 * Turns a validation error into a sentence that names the field, e.g. "body.title must NOT have
 * fewer than 1 characters". A value limited to a set (an enum, a const, or a union of consts, which
 * Ajv reports as one "must be equal to constant" per branch) is answered with the whole set:
 * "querystring.sort must be one of: hot, new, top, rising", so the caller learns what is allowed.
 */
function validationMessage(err: FastifyError): string {
  const errors = err.validation ?? [];
  const first = errors[0];
  if (!first) return err.message;
  const where = err.validationContext ?? 'request';
  const params = first.params as { missingProperty?: string; additionalProperty?: string };
  const field = (first.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  const path = `${where}${field ? `.${field}` : ''}`;
  if (params.missingProperty) return `${path}.${params.missingProperty} is required`;
  if (params.additionalProperty) return `${path}.${params.additionalProperty} is not allowed`;
  const allowed = allowedValues(errors.filter((e) => e.instancePath === first.instancePath));
  if (allowed && allowed.length > 0) return `${path} must be one of: ${allowed.join(', ')}`;
  return `${path} ${first.message ?? 'is invalid'}`;
}

/**
 * The values an enum, a const or a union of consts accepts, from the errors Ajv gave for one place;
 * undefined when that place also accepts something else (a union of a const and a number, say).
 */
function allowedValues(errors: NonNullable<FastifyError['validation']>): string[] | undefined {
  const values: string[] = [];
  for (const e of errors) {
    if (e.keyword !== 'const' && e.keyword !== 'enum' && e.keyword !== 'anyOf') return undefined;
    const p = e.params as { allowedValue?: unknown; allowedValues?: unknown[] };
    if (e.keyword === 'const' && 'allowedValue' in p) values.push(String(p.allowedValue));
    if (e.keyword === 'enum' && Array.isArray(p.allowedValues)) values.push(...p.allowedValues.map(String));
  }
  return [...new Set(values)];
}

export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof DomainError) {
    return {
      statusCode: DOMAIN_ERROR_STATUS[error.kind],
      message: error.message,
      code: error.code ?? error.kind,
      details: error.details,
    };
  }
  if (error instanceof HttpError) {
    return {
      statusCode: error.statusCode,
      message: error.message,
      code: error.code ?? STATUS_CODES[error.statusCode] ?? 'error',
      details: error.details,
    };
  }
  const err = error as FastifyError & { statusCode?: number };
  if (err?.validation) {
    return { statusCode: 400, message: validationMessage(err), code: 'validation_error' };
  }
  const status = err?.statusCode;
  if (status && status >= 400 && status < 500) {
    let message = err.message;
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError)
      message = 'Request body is not valid JSON';
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') message = 'Request body is too large';
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = 'Unsupported Content-Type';
    return { statusCode: status, message, code: STATUS_CODES[status] ?? 'error' };
  }
  return { statusCode: 500, message: 'Internal server error', code: 'internal_error' };
}

/** One log line per request, written when it completes (Fastify's default writes two). */
class OneLinePerRequest extends LogController {
  /** The trace's recorder of the app's requests (trace.ts attach), called first whatever the log level. */
  traced?: (request: FastifyRequest, reply: FastifyReply) => void;
  override incomingRequest(): void {}
  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.traced?.(request, reply);
    // Checked first: the line's fields (the redacted URL) cost work on every request, logged or not.
    const log = request.log as typeof request.log & { isLevelEnabled?(level: string): boolean };
    if (log.isLevelEnabled && !log.isLevelEnabled('info')) return;
    request.log.info(
      {
        method: request.method,
        url: loggableUrl(request),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  }
}

/**
 * Refuses (at start) an API route that declares no response schema, so every service's
 * /docs/json documents its whole API and a schema-driven client or fuzzer can check answers.
 * Routes for people (pages) and catch-alls opt out with `schema: { hide: true }`.
 */
function requireDocumented(service: string, route: RouteOptions): void {
  const schema = route.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
  const methods = ([] as string[]).concat(route.method);
  if (schema?.hide || methods.every((m) => m === 'HEAD')) return;
  if (!schema?.response || Object.keys(schema.response).length === 0) {
    throw new Error(
      `${service}: route ${methods.join(',')} ${route.url} declares no response schema (add schema.response, or schema.hide for a page)`,
    );
  }
}

/**
 * Builds a service's Fastify app. Async because the OpenAPI plugin must be loaded before the
 * first route is added: routes added earlier are missing from /docs/json (the blog's document
 * was empty whenever nothing else awaited a plugin, e.g. with HAMLET_RATE_LIMITS=off).
 */
/** What jsonOfText gives for a body that was sent but is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * A request body's text read as JSON: undefined for an empty or blank body, NOT_JSON when it
 * is not JSON. The one reading behind the platform's JSON parser and the services that parse
 * JSON whatever the Content-Type says (the blog and the home, as their upstreams do).
 */
export function jsonOfText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return NOT_JSON;
  }
}

export async function createApp(platform: AppPlatform, opts: CreateAppOptions): Promise<App> {
  const edge = platform.config?.http ?? HTTP_DEFAULTS;
  const requests = new OneLinePerRequest();
  const app = Fastify({
    loggerInstance: platform.logger.child({ service: opts.service }),
    childLoggerFactory: requestLogger,
    logController: requests,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // request.ip is the right-most X-Forwarded-For entry not written by a trusted proxy.
    trustProxy: trustProxyFunction(edge.trustProxy),
    // Slow clients (headers or body trickled a byte at a time) are cut off, and Node checks
    // for them often enough that the cut comes soon after the timeout, not up to 30 s later.
    requestTimeout: edge.requestTimeoutMs,
    keepAliveTimeout: edge.keepAliveTimeoutMs,
    http: {
      headersTimeout: edge.headersTimeoutMs,
      requestTimeout: edge.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(edge.headersTimeoutMs / 4))),
    },
    // Path traversal and odd encodings are routed like any other unknown path (404).
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
    ...(opts.onBadUrl
      ? {
          frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
            if (error.code === 'FST_ERR_BAD_URL') return opts.onBadUrl!(request, reply);
            return sendError(reply, request, opts.envelope, toErrorInfo(error));
          },
        }
      : {}),
    // Response serializers are compiled when a route first answers with that status, not at
    // start: a service declares hundreds of response schemas (every error status of every
    // route), and compiling them all up front cost seconds of CPU per start.
    // HAMLET_HTTP_EAGER_SCHEMAS=on compiles them all at start (a test does, so a broken schema cannot hide).
    ...(edge.eagerSchemas ? {} : { schemaController: { compilersFactory: { buildSerializer: lazySerializers } } }),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  // Beyond the cap Node closes new connections at once; those already open are served.
  app.server.maxConnections = edge.maxConnections;

  // Query strings, params and headers arrive as text, so "5" must become 5 there; a JSON body
  // already has types, and `{"vote": "1"}` or `{"name": 7}` is wrong input, not something to coerce.
  // Compiled on first use, for the reason given at lazySerializers.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const compile = () => (httpPart === 'body' ? strictAjv : coercingAjv).compile(schema);
    return edge.eagerSchemas ? compile() : lazyValidator(compile);
  });

  // JSON parsing that tolerates an empty body (the AgentMail SDK sends one with a JSON
  // content type) and reports malformed JSON as a 400 in the service's envelope.
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json/, { parseAs: 'string' }, (_req, body, done) => {
    const parsed = jsonOfText(body as string);
    if (parsed === NOT_JSON)
      return done(new HttpError(400, 'Request body is not valid JSON', 'invalid_json'), undefined);
    done(null, parsed);
  });

  // Every parsed body, whichever parser made it (services add their own), is checked once
  // here before any code walks it: depth bounded (a recursive walk over 20,000 levels
  // overflows the stack), and no U+0000 (PostgreSQL cannot store it in text; refused the
  // same way on every database). Checked without recursion; see json-limits.ts.
  // (Callback hooks rather than async ones here and below: they run on every request, and an async hook costs a promise each time.)
  app.addHook('preValidation', (request, _reply, done) => {
    const body = request.body;
    const isJsonText = typeof body === 'string' && /json/i.test(String(request.headers['content-type'] ?? ''));
    if ((body === null || typeof body !== 'object' || Buffer.isBuffer(body)) && !isJsonText) return done();
    const maxDepth = request.routeOptions.config?.jsonMaxDepth ?? edge.jsonMaxDepth;
    const problem = jsonShapeProblem(body, { maxDepth });
    if (problem?.kind === 'nul')
      return done(
        new HttpError(
          400,
          'Request body contains a NUL character (\\u0000), which is not allowed',
          'invalid_character',
        ),
      );
    if (problem) return done(new HttpError(400, `Request body is nested deeper than ${maxDepth} levels`, 'too_deep'));
    done();
  });

  // Graceful close: a keep-alive connection whose request is in flight when the app closes
  // would stay open after its answer (until the keep-alive timeout), holding the close up.
  // Answers sent while closing say `Connection: close`, so the client (or the load balancer)
  // ends the connection and opens its next one elsewhere.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.includes('%00'))
      return done(new HttpError(400, 'NUL characters (%00) are not allowed in URLs', 'invalid_character'));
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    const info = toErrorInfo(error);
    if (info.statusCode >= 500) request.log.error({ err: error }, 'unhandled error');
    if (error instanceof HttpError && error.headers) reply.headers(error.headers);
    // A domain's "limited" refusal names when to come back; clients read it from Retry-After.
    if (
      error instanceof DomainError &&
      error.kind === 'limited' &&
      typeof error.details?.retry_after_seconds === 'number'
    )
      reply.header('retry-after', String(error.details.retry_after_seconds));
    return sendError(reply, request, opts.envelope, info);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, request, opts.envelope, {
      statusCode: 404,
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      code: 'not_found',
    }),
  );

  app.addHook('onRoute', (route) => requireDocumented(opts.service, route));
  // Services' auth code sets the id of the key that checked out; the trace names it.
  app.decorateRequest('apiKeyId', null);
  if (opts.traced !== false) requests.traced = platform.trace?.attach(app, opts.service);

  await app.register(swagger, {
    openapi: {
      info: {
        title: opts.openapi?.title ?? `Hamlet ${opts.service}`,
        version: opts.openapi?.version ?? '1.0.0',
        description: opts.openapi?.description,
      },
    },
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', service: opts.service }));
  const health = opts.readiness !== false ? platform.health : undefined;
  if (health) {
    app.get('/healthz/readiness', { schema: { hide: true } }, async (_request, reply) => {
      const { ready, reason } = await health.readiness();
      return ready ? { status: 'ok' } : reply.code(503).send({ status: 'error', reason });
    });
  }
  app.get('/docs/json', { schema: { hide: true } }, async () => app.swagger());
  if (opts.index) registerServiceIndex(app as unknown as FastifyInstance, opts.index);

  return app;
}

const buildSerializers = SerializerSelector();

/** Fastify's own serializer compiler, deferred until a route's serializer is first needed. */
const lazySerializers: SerializerSelector.SerializerFactory = (externalSchemas, options) => {
  const compile = buildSerializers(externalSchemas, options);
  return (route) => {
    let serialize: SerializerSelector.Serializer | undefined;
    return (data) => (serialize ??= compile(route))(data);
  };
};

/** An Ajv validator compiled on its first call; Fastify reads `errors` from the function it was given. */
function lazyValidator(compile: () => ValidateFunction): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const wrapper = ((data: unknown) => {
    validate ??= compile();
    const ok = validate(data);
    wrapper.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  return wrapper;
}

function sendError(reply: FastifyReply, request: FastifyRequest, envelope: ErrorEnvelope, info: ErrorInfo) {
  return reply
    .code(info.statusCode)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(envelope(info, request)));
}

/** Listens and returns the base URL with the real port (port 0 picks a free one). */
export async function listen(
  app: { listen: FastifyInstance['listen']; server: FastifyInstance['server'] },
  host: string,
  port: number,
): Promise<string> {
  await app.listen({ host, port });
  const addr = app.server.address();
  const realPort = typeof addr === 'object' && addr ? addr.port : port;
  return reachableUrl(host, realPort);
}

/** The bearer token of a request, or undefined. Case-insensitive scheme, as RFC 6750 allows. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

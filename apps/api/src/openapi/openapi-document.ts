import { ApiErrorResponseSchema, paramNames, type Reply } from '@sweatpants/domain';
import * as z from 'zod';
import { ROUTES, type RouteSpec } from './route-table';

type JsonObject = Record<string, unknown>;

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'invalid_request: details names each bad field',
  '401': 'unauthenticated',
  '403': 'forbidden',
  '404': 'not_found (also for what belongs to someone else)',
  '409': 'conflict: details.head is the current HEAD',
  '413': 'too_large',
  '429': 'rate_limited',
};

/**
 * A zod schema as JSON Schema: of what a client sends (`input`: defaults make fields optional), or
 * of what it reads (`output`), whose objects stay open, since the api may answer more than
 * PROTOCOL.md names.
 */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonObject =>
  z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: ({ jsonSchema: node }) => {
      if (io === 'output' && node.additionalProperties === false) delete node.additionalProperties;
    },
  }) as JsonObject;

/** The success answer's body: its JSON schema, the file's media types, or nothing. */
function successContent(reply: Reply): JsonObject {
  switch (reply.kind) {
    case 'json':
      return { content: { 'application/json': { schema: jsonSchema(reply.schema, 'output') } } };
    case 'binary':
      return {
        content: Object.fromEntries(
          reply.mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
        ),
      };
    case 'text':
      return { content: { [reply.mediaType]: { schema: { type: 'string' } } } };
    case 'empty':
      return {};
  }
}

function operation(route: RouteSpec): JsonObject {
  const params = paramNames(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = route.query
    ? Object.entries(
        (jsonSchema(route.query, 'input')['properties'] ?? {}) as Record<string, JsonObject>,
      ).map(([name, schema]) => ({ name, in: 'query', required: false, schema }))
    : [];
  const errors = Object.fromEntries(
    Object.entries(ERROR_RESPONSES)
      .filter(([status]) =>
        status === '403' ? route.access === 'admin' : status !== '401' || route.access !== 'public',
      )
      .map(([status, description]) => [
        status,
        { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      ]),
  );
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.access === 'public' ? { security: [] } : {}),
    parameters: [...params, ...query],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [String(route.status)]: { description: route.answers, ...successContent(route.reply) },
      ...errors,
    },
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP api, generated from libs/domain's HTTP contract: the same
 * zod schemas the handlers validate requests with and the clients read answers with.
 */
export function openApiDocument(routes: readonly RouteSpec[] = ROUTES): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sweatpants api',
      version: '1',
      description:
        'PROTOCOL.md as an OpenAPI document. The WebSocket contract (Socket.IO at /socket.io) is in PROTOCOL.md.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: jsonSchema(ApiErrorResponseSchema, 'output') },
    },
  };
}

import { ApiErrorResponseSchema } from '@sweatpants/domain';
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

/** A zod schema as the JSON Schema of what a client sends (defaults make fields optional). */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonObject =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;

function operation(route: RouteSpec): JsonObject {
  const params = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
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
      [String(route.status)]: {
        description: route.response,
        ...(route.responseSchema
          ? { content: { 'application/json': { schema: jsonSchema(route.responseSchema, 'output') } } }
          : {}),
      },
      ...errors,
    },
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP api, generated from the route table and the same zod
 * schemas the handlers validate with, so the two cannot drift apart.
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

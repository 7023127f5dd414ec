import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

import type { MessageCreateParams, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ErrorType } from '@anthropic-ai/sdk/resources/shared';

import type { Json } from '@sweatpants/domain';
import * as z from 'zod';

import { errorBody } from './fake-anthropic-steps';

// The fake's HTTP side, as the Messages API speaks it: SSE frames, JSON answers and errors, the key.

/** Writes SSE frames, `event: <type>\ndata: <json>\n\n`, until the client goes away. */
export class SseStream {
  constructor(private readonly res: ServerResponse) {}

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  send(...events: RawMessageStreamEvent[]): void {
    for (const event of events) this.frame(event.type, event);
  }

  sendPing(): void {
    this.frame('ping', { type: 'ping' });
  }

  sendError(type: ErrorType, message: string): void {
    this.frame('error', errorBody(type, message));
  }

  end(): void {
    if (!this.closed) this.res.end();
  }

  private frame(type: string, data: RawMessageStreamEvent | Json): void {
    if (!this.closed) this.res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

export function sendError(
  res: ServerResponse,
  status: number,
  type: ErrorType,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, errorBody(type, message), headers);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': 'req_fake',
    ...headers,
  });
  res.end(text);
}

/**
 * The API documents `x-api-key`, but SDK 1.x sends the key as `authorization: Bearer <key>`, so
 * the fake takes either, as the API does.
 */
export function apiKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key) return key;
  const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? '');
  return bearer?.[1];
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// Just what the API itself checks first; the rest of the body is the test's to inspect.
const MessagesBodySchema = z.looseObject({
  model: z.string(),
  max_tokens: z.number(),
  messages: z.array(z.unknown()),
});

/** The system prompt a request sent, as one text. */
export function systemTextOf(body: MessageCreateParams | undefined): string | undefined {
  const system = body?.system;
  return system === undefined || typeof system === 'string' ? system : system.map((b) => b.text).join('\n\n');
}

/** The request body, when it has what the API checks first; undefined for one it would refuse. */
export function parseMessagesBody(raw: string): MessageCreateParams | undefined {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  // The check covers only the required fields; the SDK's type for the rest is what it sent.
  return MessagesBodySchema.safeParse(json).success ? (json as MessageCreateParams) : undefined;
}

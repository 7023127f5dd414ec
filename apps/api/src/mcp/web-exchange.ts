import type { IncomingMessage, ServerResponse } from 'node:http';

/** An Express request as the api has it: its JSON body parsed when it had one. */
export type ParsedRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

/**
 * A Node request as a web standard Request, for the SDK's web standard transport (what its
 * StreamableHTTPServerTransport wraps for Node). The body is the JSON the api's body parser read,
 * handed over parsed (`parsedBody`); the request's signal aborts when the client goes away.
 */
export function webRequestOf(req: ParsedRequest, res: ServerResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  return new Request(new URL(req.originalUrl ?? req.url ?? '/', 'http://localhost'), {
    method: req.method ?? 'GET',
    headers,
    signal: gone.signal,
  });
}

/**
 * Writes a web standard Response to the Node response as it comes: an SSE stream's events are
 * written (and reach the client) one by one, and the stream is cancelled when the client goes.
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away, or the stream was cancelled: nothing more to write
  }
  res.end();
}

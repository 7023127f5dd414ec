import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/auth.decorators';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { BlobAccess } from './blob-access';
import { BLOB_STORE, SHA256, type BlobStore } from './blob-store';

/**
 * `GET /api/blobs/:sha256` (PROTOCOL.md, Nodes): a photo's bytes, for whoever may read a node that
 * names it; a 404 for everyone else, as for a blob that does not exist or a malformed name, so
 * names cannot be probed. The bytes of a name never change, so the answer is cached for good (in
 * the caller's own cache only: it depends on who asks) and its ETag is the name.
 */
@Controller()
export class BlobsController {
  constructor(
    private readonly access: BlobAccess,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  /** The bytes are written through `@Res()`: a 304, or the image with its own Content-Type. */
  @Endpoint(HTTP_CONTRACT.blob)
  async get(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof HTTP_CONTRACT.blob>,
    @Req() req: IncomingMessage,
    @Res() res: ServerResponse,
  ): EndpointResult<typeof HTTP_CONTRACT.blob> {
    const { sha256 } = params;
    if (!SHA256.test(sha256) || !(await this.access.mayRead(user, sha256))) throw notFound();
    const etag = `"${sha256}"`;
    const cache = { 'Cache-Control': 'private, max-age=31536000, immutable', ETag: etag };
    if (matches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, cache).end();
      return;
    }
    const blob = await this.blobs.get(sha256);
    if (!blob) throw notFound();
    for (const [name, value] of Object.entries(cache)) res.setHeader(name, value);
    res.statusCode = 200;
    res.setHeader('Content-Type', blob.mediaType);
    res.setHeader('Content-Length', blob.data.length);
    res.end(blob.data);
  }
}

function notFound(): ApiError {
  return new ApiError('not_found', 'no such blob');
}

function matches(header: string | undefined, etag: string): boolean {
  return header !== undefined && header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

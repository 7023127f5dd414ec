import { createReadStream, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** Paths that belong to the server, never to the client's router. */
const SERVER_PATHS = /^\/(api|socket\.io)(\/|$)/;

/**
 * Serves the built web client at `/`: its files as they are, and `index.html` for any other GET
 * outside /api whose last segment has no extension (a deep link into the client's router). A
 * missing asset (`/main-x.js`) stays a 404 rather than a page of HTML the browser would choke on.
 * Call before the app initialises, so these run ahead of Nest's routes and its 404.
 */
export function serveWebClient(app: NestExpressApplication, dir: string, logger: Logger): void {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) {
    logger.warn(`the web client is not built (no ${index}): serving the api only`);
    return;
  }
  app.useStaticAssets(dir, { index: 'index.html', fallthrough: true });
  app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const isPageRequest = (req.method === 'GET' || req.method === 'HEAD') && !SERVER_PATHS.test(path);
    if (!isPageRequest || /\.[^/]*$/.test(path)) return next();
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    // The page names hashed bundles; a cached copy would outlive them.
    res.setHeader('Cache-Control', 'no-cache');
    if (req.method === 'HEAD') return void res.end();
    createReadStream(index)
      .on('error', () => res.destroy())
      .pipe(res);
  });
  logger.log(`serving the web client from ${dir}`);
}

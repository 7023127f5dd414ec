import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import { openApiDocument } from './openapi-document';

const DOCS = '/api/docs';

// Scripts load from files, never inline, so the Content-Security-Policy stays strict here too.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Sweatpants api</title>
  <link rel="stylesheet" href="${DOCS}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS}/swagger-ui-bundle.js"></script>
  <script src="${DOCS}/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/docs-json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/**
 * The API docs: Swagger UI at /api/docs, from swagger-ui-dist in node_modules (no CDN), reading
 * /api/docs-json. Mounted ahead of Nest's routes, so they need no token.
 */
export function serveApiDocs(app: NestExpressApplication): void {
  const document = JSON.stringify(openApiDocument());
  const send = (res: ServerResponse, type: string, body: string) => {
    res.setHeader('Content-Type', `${type}; charset=utf-8`);
    res.end(body);
  };
  app.use(`${DOCS}-json`, (_req: IncomingMessage, res: ServerResponse) =>
    send(res, 'application/json', document),
  );
  app.use(DOCS, (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/' || path === '') return send(res, 'text/html', PAGE);
    if (path === '/init.js') return send(res, 'text/javascript', INIT);
    next();
  });
  app.useStaticAssets(getAbsoluteFSPath(), { prefix: `${DOCS}/`, index: false });
}

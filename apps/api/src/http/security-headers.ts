import { createHash } from 'node:crypto';
import helmet from 'helmet';

/**
 * The one inline handler the built client has: Angular's critical-CSS loader turns the stylesheet
 * on with `onload="this.media='all'"`. Allowing that exact handler by its hash keeps every other
 * inline script refused.
 */
const STYLESHEET_ONLOAD = "this.media='all'";
const hashOf = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;

/**
 * helmet's headers with a Content-Security-Policy the web client and the API docs run under:
 * scripts, styles, fonts and connections from this origin only (the socket included), images
 * also as data: and blob: URLs (photos the user picked).
 */
export function securityHeaders() {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        'script-src-attr': ["'unsafe-hashes'", hashOf(STYLESHEET_ONLOAD)],
        'img-src': ["'self'", 'data:', 'blob:'],
      },
    },
  });
}

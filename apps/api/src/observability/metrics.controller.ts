import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { Public } from '../auth/auth.decorators';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { Endpoint, type EndpointResult } from '../http/endpoint';
import { Metrics } from './metrics';

/** Loopback as Node reports a peer: IPv4, IPv6, and IPv4 mapped into IPv6. */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Whether a connection's peer address is this host's loopback. */
export function isLoopback(address: string | undefined): boolean {
  return LOOPBACK.test(address ?? '');
}

/**
 * `GET /api/metrics` (PROTOCOL.md, Health): Prometheus text for a scraper on the same host, or for
 * one that sends `Authorization: Bearer <METRICS_TOKEN>`. Loopback is judged by the connection's
 * own peer address, never a forwarded header: a proxy on the host would make every caller local,
 * so behind one, set METRICS_TOKEN. Anyone else gets a 403.
 */
@Public()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The text is written through `@Res()`, with the registry's own Content-Type. */
  @Endpoint(HTTP_CONTRACT.metrics)
  async scrape(
    @Req() req: IncomingMessage,
    @Res() res: ServerResponse,
  ): EndpointResult<typeof HTTP_CONTRACT.metrics> {
    if (!this.allowed(req)) {
      throw new ApiError(
        'forbidden',
        'metrics are served to loopback callers, or with Authorization: Bearer <METRICS_TOKEN>',
      );
    }
    const text = await this.metrics.text();
    res.setHeader('Content-Type', this.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
  }

  private allowed(req: IncomingMessage): boolean {
    const token = this.config.metricsToken;
    const header = req.headers.authorization ?? '';
    if (token !== undefined && header.startsWith('Bearer ')) return sameSecret(header.slice(7), token);
    return isLoopback(req.socket.remoteAddress);
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

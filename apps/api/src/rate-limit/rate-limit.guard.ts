import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { RATE_LIMITER, type RateLimiter } from './rate-limiter';

interface LimitedRequest extends AuthenticatedRequest {
  ip?: string;
}

interface LimitedResponse {
  setHeader(name: string, value: string): void;
}

/**
 * Per-user limits on HTTP (RATE_LIMIT_HTTP_PER_MINUTE): a 429 `rate_limited` with Retry-After
 * beyond them. Runs after the auth guard, so signed-in callers count as themselves and anyone
 * else (register, login) by address.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limit: number;

  constructor(
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.rateLimit.httpPerMinute;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const key = request.user ? `http:user:${request.user.id}` : `http:ip:${request.ip ?? 'unknown'}`;
    const decision = await this.limiter.hit(key, this.limit);
    if (decision.allowed) return true;
    http.getResponse<LimitedResponse>().setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new ApiError('rate_limited', `too many requests: try again in ${decision.retryAfterSeconds}s`, {
      retryAfterSeconds: decision.retryAfterSeconds,
    });
  }
}

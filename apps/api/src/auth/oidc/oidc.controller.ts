import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Inject, Logger, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT, type OidcError, type SignInMethods } from '@sweatpants/domain';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Endpoint, type EndpointReply, type EndpointResult } from '../../http/endpoint';
import { Public } from '../auth.decorators';
import { setRefreshCookie } from '../refresh-cookie';
import { userAgentOf } from '../refresh-tokens.repository';
import { OidcSignIn } from './oidc-sign-in';
import {
  pendingLoginCookieCleared,
  readPendingLoginCookie,
  setPendingLoginCookie,
} from './pending-login-cookie';

const { signInMethods, oidcLogin, oidcCallback } = HTTP_CONTRACT;

/**
 * The sign-in methods on offer, and OpenID Connect's two legs. The legs are browser navigations,
 * so whatever happens they answer with a redirect: to the provider, or back to the web client's
 * sign-in page, signed in (`?via=oidc`) or with a reason it can say in plain words
 * (`?oidcError=`), never a JSON or error page.
 */
@Controller()
export class OidcController {
  private readonly logger = new Logger('OIDC');
  private readonly publicUrl: string;
  private readonly methods: SignInMethods;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly signIn: OidcSignIn,
  ) {
    this.publicUrl = config.publicUrl;
    this.methods = { password: config.passwordSignIn, oidc: config.oidc ? { name: config.oidc.name } : null };
  }

  /** `GET /api/auth/methods` → how one may sign in here. */
  @Public()
  @Endpoint(signInMethods)
  methodsOnOffer(): EndpointReply<(typeof signInMethods)['reply']> {
    return this.methods;
  }

  /** `GET /api/auth/oidc/login` → 302 to the provider, the pending sign-in's cookie set. */
  @Public()
  @Endpoint(oidcLogin)
  async login(@Req() req: IncomingMessage, @Res() res: ServerResponse): EndpointResult<typeof oidcLogin> {
    try {
      const returnUrl = safeReturnUrl(new URL(req.url ?? '/', 'http://x').searchParams.get('returnUrl'));
      const started = await this.signIn.start(returnUrl);
      if (!started.ok) return this.failed(res, started.error);
      setPendingLoginCookie(req, res, started.value.browserSecret);
      redirect(res, started.value.redirectTo.href);
    } catch (error: unknown) {
      this.logger.error(`a sign-in could not begin: ${String(error)}`);
      this.failed(res, 'failed');
    }
  }

  /** `GET /api/auth/oidc/callback` → 302 to the web client, signed in or told why not. */
  @Public()
  @Endpoint(oidcCallback)
  async callback(
    @Req() req: IncomingMessage,
    @Res() res: ServerResponse,
  ): EndpointResult<typeof oidcCallback> {
    try {
      const query = new URL(req.url ?? '/', 'http://x').search.slice(1);
      const finished = await this.signIn.finish(
        query,
        readPendingLoginCookie(req),
        userAgentOf(req.headers['user-agent']),
      );
      if (!finished.ok) return this.failed(res, finished.error, req);
      setRefreshCookie(req, res, finished.value.session.refresh);
      res.appendHeader('Set-Cookie', pendingLoginCookieCleared(req));
      const returnUrl = finished.value.returnUrl;
      redirect(res, this.signInPage({ via: 'oidc', ...(returnUrl ? { returnUrl } : {}) }));
    } catch (error: unknown) {
      this.logger.error(`a sign-in could not finish: ${String(error)}`);
      this.failed(res, 'failed', req);
    }
  }

  /** Back to the sign-in page with the reason; a finished or refused sign-in's cookie goes. */
  private failed(res: ServerResponse, reason: OidcError, req?: IncomingMessage): void {
    if (req) res.setHeader('Set-Cookie', pendingLoginCookieCleared(req));
    redirect(res, this.signInPage({ oidcError: reason }));
  }

  private signInPage(query: Record<string, string>): string {
    return `${this.publicUrl}/sign-in?${new URLSearchParams(query).toString()}`;
  }
}

function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 302;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

/** A path of the web client, or null: never another origin (`//evil.example`, `/\evil.example`). */
function safeReturnUrl(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value.length > 2000 ? null : value;
}

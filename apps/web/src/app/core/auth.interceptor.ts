import type { HttpErrorResponse, HttpInterceptorFn, HttpRequest } from '@angular/common/http';
import { inject } from '@angular/core';
import { catchError, from, switchMap, throwError } from 'rxjs';

import { SessionService } from './session.service';

/** The routes that sign in or carry a session on: they take no bearer token and are never retried. */
const SESSION_ROUTES = [
  '/api/auth/register',
  '/api/auth/login',
  '/api/auth/refresh',
  '/api/auth/sign-out',
  '/api/auth/password-reset/confirm',
];

/** The calls whose answer changes the session's tokens: refreshes wait for them (changingSession). */
const SESSION_CHANGES = [
  'POST /api/account/password',
  'POST /api/account/email',
  'POST /api/auth/sign-out-everywhere',
  'DELETE /api/account',
];

const isRefused = (error: unknown): boolean => (error as Partial<HttpErrorResponse>).status === 401;

/**
 * Adds `Authorization: Bearer` to api calls. A 401 means the access token expired (or was taken
 * back): the session is refreshed once, shared with every other call refused meanwhile, and the
 * call sent again with the fresh token. When the refresh is refused, or the call is refused again,
 * the session is over and the person is sent to sign in (SessionService.expire).
 */
export const authInterceptor: HttpInterceptorFn = (request, next) => {
  const session = inject(SessionService);
  const token = session.token();
  const isApi = request.url.startsWith('/api/');
  // Whole paths: `/api/auth/sign-out-everywhere` is a signed-in call like any other.
  const path = request.url.split('?')[0] ?? '';
  if (!token || !isApi || SESSION_ROUTES.includes(path)) return next(request);
  const withToken = (bearer: string): HttpRequest<unknown> =>
    request.clone({ setHeaders: { Authorization: `Bearer ${bearer}` } });
  const sent = next(withToken(token));
  const changes = SESSION_CHANGES.includes(`${request.method} ${request.url}`);
  return (changes ? session.changingSession(sent) : sent).pipe(
    catchError((error: unknown) => {
      if (!isRefused(error)) return throwError(() => error);
      // An unreachable api while refreshing says nothing about the session: the call fails as it did.
      return from(session.refreshAfter(token).catch(() => undefined)).pipe(
        switchMap((fresh) => {
          if (fresh === undefined) return throwError(() => error);
          if (fresh === null) {
            session.expire(token);
            return throwError(() => error);
          }
          return next(withToken(fresh)).pipe(
            catchError((again: unknown) => {
              if (isRefused(again)) session.expire(fresh);
              return throwError(() => again);
            }),
          );
        }),
      );
    }),
  );
};

import type { HttpInterceptorFn } from '@angular/common/http';
import { inject } from '@angular/core';
import { Router } from '@angular/router';
import { catchError, throwError } from 'rxjs';

import { SessionService } from './session.service';

/** Adds `Authorization: Bearer` to api calls; a 401 means the token expired, so sign in again. */
export const authInterceptor: HttpInterceptorFn = (request, next) => {
  const session = inject(SessionService);
  const router = inject(Router);
  const token = session.token();
  const isApi = request.url.startsWith('/api/');
  const authed =
    token &&
    isApi &&
    !request.url.startsWith('/api/auth/register') &&
    !request.url.startsWith('/api/auth/login')
      ? request.clone({ setHeaders: { Authorization: `Bearer ${token}` } })
      : request;
  return next(authed).pipe(
    catchError((error: unknown) => {
      const status = (error as { status?: unknown }).status;
      if (status === 401 && authed !== request) {
        session.end();
        void router.navigate(['/sign-in']);
      }
      return throwError(() => error);
    }),
  );
};

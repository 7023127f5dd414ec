import { inject } from '@angular/core';
import { type CanActivateFn, Router, type UrlTree } from '@angular/router';

import { SessionService } from './session.service';

/** To sign in, and back to `url` afterwards (the sign-in page reads `returnUrl`). */
function signInFirst(url: string): UrlTree {
  return inject(Router).createUrlTree(['/sign-in'], url === '/' ? {} : { queryParams: { returnUrl: url } });
}

export const signedInGuard: CanActivateFn = (_route, state) => {
  const session = inject(SessionService);
  return session.signedIn() ? true : signInFirst(state.url);
};

/** The admin pages; the api refuses non-admins anyway (403), this only keeps the menu honest. */
export const adminGuard: CanActivateFn = (_route, state) => {
  const session = inject(SessionService);
  if (!session.signedIn()) return signInFirst(state.url);
  return session.isAdmin() ? true : inject(Router).createUrlTree(['/']);
};

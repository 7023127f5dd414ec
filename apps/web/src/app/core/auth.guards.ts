import { inject } from '@angular/core';
import { type CanActivateFn, Router } from '@angular/router';

import { SessionService } from './session.service';

export const signedInGuard: CanActivateFn = () => {
  const session = inject(SessionService);
  return session.signedIn() ? true : inject(Router).createUrlTree(['/sign-in']);
};

/** The admin pages; the api refuses non-admins anyway (403), this only keeps the menu honest. */
export const adminGuard: CanActivateFn = () => {
  const session = inject(SessionService);
  if (!session.signedIn()) return inject(Router).createUrlTree(['/sign-in']);
  return session.isAdmin() ? true : inject(Router).createUrlTree(['/']);
};

import { inject, Injectable, signal } from '@angular/core';
import type { SignInMethods } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';

/** What is offered when the api could not say: the password form, which then reports the api's state itself. */
const PASSWORD_ONLY: SignInMethods = { password: true, oidc: null };

/**
 * How one may sign in to this deployment (`GET /api/auth/methods`), asked once per page load: the
 * sign-in page offers exactly those, and the top bar offers no sign-up where there is none.
 */
@Injectable({ providedIn: 'root' })
export class SignInMethodsService {
  private readonly api = inject(ApiService);
  private asked: Promise<SignInMethods> | undefined;
  /** null until the api has answered */
  readonly methods = signal<SignInMethods | null>(null);

  load(): Promise<SignInMethods> {
    this.asked ??= this.api.signInMethods().then(
      (methods) => {
        this.methods.set(methods);
        return methods;
      },
      () => {
        // Asked again next time: the api may be back by then.
        this.asked = undefined;
        this.methods.set(PASSWORD_ONLY);
        return PASSWORD_ONLY;
      },
    );
    return this.asked;
  }
}

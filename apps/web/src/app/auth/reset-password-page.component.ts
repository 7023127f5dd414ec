import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { ActivatedRoute, Router, RouterLink } from '@angular/router';

import { describeError, toApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';

/**
 * The page a password-reset mail's link opens (`/reset-password?token=…`): a new password, and the
 * person is signed in with it (every other session of theirs ends). A link that expired, was used
 * or is not one of ours is said so plainly, with the way to a new one. The link to an account with
 * no password yet (one an identity provider made) says `first=1`, and the page asks for a password
 * rather than a new one: wording only, the token decides what the link may do.
 */
@Component({
  selector: 'app-reset-password-page',
  imports: [RouterLink],
  template: `
    <section class="card stack auth" aria-labelledby="reset-heading">
      <h1 id="reset-heading">{{ first ? 'Set a password' : 'Set a new password' }}</h1>
      @if (!token) {
        <p class="error" role="alert">
          This page opens from the link in the mail we sent. Ask for a new one if you cannot find it.
        </p>
      } @else if (refused(); as r) {
        <p class="error" role="alert">{{ r }}</p>
      } @else {
        <form class="stack" novalidate (submit)="$event.preventDefault(); submit()">
          <label class="field">
            <span>{{ first ? 'Password' : 'New password' }}</span>
            <input
              #pass
              class="input"
              name="password"
              type="password"
              autocomplete="new-password"
              minlength="8"
              required
              (input)="password.set(pass.value)"
            />
            <small class="muted"
              >At least 8 characters. Every device signed in to your account is signed out.</small
            >
          </label>
          @if (error(); as e) {
            <p class="error" role="alert">{{ e }}</p>
          }
          <button type="submit" class="button button--primary" [disabled]="busy()">
            Set password and sign in
          </button>
        </form>
      }
      <p class="small">
        <a routerLink="/forgot-password">Ask for a new link</a> · <a routerLink="/sign-in">Sign in</a>
      </p>
    </section>
  `,
  styles: `
    .auth {
      max-width: 26rem;
      margin: var(--space-6) auto;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ResetPasswordPageComponent {
  private readonly api = inject(ApiService);
  private readonly session = inject(SessionService);
  private readonly router = inject(Router);

  private readonly query = inject(ActivatedRoute).snapshot.queryParamMap;
  protected readonly token = this.query.get('token');
  /** the account has no password yet: this link sets its first */
  protected readonly first = this.query.get('first') === '1';
  protected readonly password = signal('');
  protected readonly busy = signal(false);
  /** what is wrong with the password, to put right here */
  protected readonly error = signal<string | null>(null);
  /** why the link does not work: nothing to put right on this page */
  protected readonly refused = signal<string | null>(null);

  protected async submit(): Promise<void> {
    if (!this.token) return;
    this.busy.set(true);
    this.error.set(null);
    try {
      const auth = await this.api.confirmPasswordReset({ token: this.token, password: this.password() });
      this.session.start(auth);
      await this.router.navigateByUrl('/');
    } catch (error: unknown) {
      const problem = describeError(error);
      if (isLinkRefusal(error)) this.refused.set(problem);
      else this.error.set(problem);
    } finally {
      this.busy.set(false);
    }
  }
}

/** The api refused the link itself (expired, used, unknown), not the password. */
export function isLinkRefusal(error: unknown): boolean {
  const details = toApiError(error).body.details;
  return (
    Array.isArray(details) && details.some((d: unknown) => (d as { field?: unknown })?.field === 'token')
  );
}

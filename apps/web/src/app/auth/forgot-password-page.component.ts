import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import { RouterLink } from '@angular/router';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';

/**
 * "Forgot password?": an email, and a link to set a new password is mailed to it when it has an
 * account. The page says the same either way, as the api does.
 */
@Component({
  selector: 'app-forgot-password-page',
  imports: [RouterLink],
  template: `
    <section class="card stack auth" aria-labelledby="forgot-heading">
      <h1 id="forgot-heading">Forgot your password?</h1>
      @if (sent(); as message) {
        <p role="status">{{ message }}</p>
        <p class="small muted">No mail? Look in your spam folder, or check the address and ask again.</p>
        <button type="button" class="button" (click)="sent.set(null)">Ask again</button>
      } @else {
        <p class="small muted">
          Enter the email you sign in with. We will mail you a link to set a new password.
        </p>
        <!-- novalidate: the api checks the field; core/api-error.ts says what is wrong in plain words. -->
        <form class="stack" novalidate (submit)="$event.preventDefault(); submit()">
          <label class="field">
            <span>Email</span>
            <input
              #mail
              class="input"
              name="email"
              type="email"
              autocomplete="email"
              required
              [value]="email()"
              (input)="email.set(mail.value)"
            />
          </label>
          @if (error(); as e) {
            <p class="error" role="alert">{{ e }}</p>
          }
          <button type="submit" class="button button--primary" [disabled]="busy()">Mail me a link</button>
        </form>
      }
      <p class="small"><a routerLink="/sign-in">Back to sign in</a></p>
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
export class ForgotPasswordPageComponent {
  private readonly api = inject(ApiService);

  protected readonly email = signal('');
  protected readonly busy = signal(false);
  protected readonly error = signal<string | null>(null);
  /** the api's answer, which is the same whether or not the address has an account */
  protected readonly sent = signal<string | null>(null);

  protected async submit(): Promise<void> {
    this.busy.set(true);
    this.error.set(null);
    try {
      this.sent.set((await this.api.requestPasswordReset({ email: this.email() })).message);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }
}

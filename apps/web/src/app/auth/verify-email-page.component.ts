import { ChangeDetectionStrategy, Component, inject, signal, type OnInit } from '@angular/core';
import { ActivatedRoute, RouterLink } from '@angular/router';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';

/**
 * The page a confirmation mail's link opens (`/verify-email?token=…`): it proves the address at
 * once, signed in or not (the mail may be read on another device), and says so plainly, or why
 * the link did not work.
 */
@Component({
  selector: 'app-verify-email-page',
  imports: [RouterLink],
  template: `
    <section class="card stack auth" aria-labelledby="verify-heading">
      <h1 id="verify-heading">Confirm your email</h1>
      @switch (state()) {
        @case ('checking') {
          <p role="status">Confirming…</p>
        }
        @case ('done') {
          <p role="status">Thank you: {{ email() }} is confirmed.</p>
          <p><a class="button button--primary" routerLink="/">Carry on</a></p>
        }
        @case ('refused') {
          <p class="error" role="alert">{{ error() }}</p>
          @if (session.signedIn()) {
            <p class="small muted">The banner at the top of the page sends a new link.</p>
          } @else {
            <p class="small"><a routerLink="/sign-in">Sign in</a> to ask for a new link.</p>
          }
        }
      }
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
export class VerifyEmailPageComponent implements OnInit {
  private readonly api = inject(ApiService);
  protected readonly session = inject(SessionService);
  private readonly token = inject(ActivatedRoute).snapshot.queryParamMap.get('token');

  protected readonly state = signal<'checking' | 'done' | 'refused'>('checking');
  protected readonly email = signal('');
  protected readonly error = signal<string | null>(null);

  async ngOnInit(): Promise<void> {
    try {
      const verified = await this.api.verifyEmail({ token: this.token ?? '' });
      this.email.set(verified.email);
      // This tab's token was signed before: a fresh one says the address is proven (the banner goes).
      await this.session.renew();
      this.state.set('done');
    } catch (error: unknown) {
      this.error.set(describeError(error));
      this.state.set('refused');
    }
  }
}

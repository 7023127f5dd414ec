import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { Router } from '@angular/router';
import type { AccountDeletionInfo } from '@sweatpants/domain';

import { describeError, toApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';

/**
 * Deleting the account, for good. The person says they understand, and confirms it is them: with
 * their password, or, for an account that has none (made through the identity provider, or
 * passkeys only), with a recent sign-in (GET /api/account/deletion says which: `how`, read by the
 * account page). A sign-in that is no longer recent is sent to sign in again and brought back here.
 */
@Component({
  selector: 'app-delete-account',
  template: `
    <section class="card stack danger" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete your account</h2>
      <p class="small">
        Your account, every conversation and photo, and what the concierge keeps for you are removed for good.
        This cannot be undone: download your data first if you want to keep it.
      </p>
      @if (confirmWith() === 'recent-sign-in' && !recent()) {
        <p class="small">You have no password here, so signing in again confirms it is you.</p>
        <button type="button" class="button" (click)="signInAgain()">Sign in again</button>
      } @else {
        <form class="stack" novalidate (submit)="$event.preventDefault(); deleteAccount()">
          @if (confirmWith() === 'password') {
            <label class="field">
              <span>Your password</span>
              <input
                #pw
                class="input"
                type="password"
                name="deletePassword"
                autocomplete="current-password"
                [value]="password()"
                (input)="password.set(pw.value)"
              />
            </label>
          } @else {
            <p class="small">You have no password here: signing in a moment ago confirms it is you.</p>
          }
          <label class="check">
            <input #sureBox type="checkbox" [checked]="sure()" (change)="sure.set(sureBox.checked)" />
            <span>I understand everything is deleted for good</span>
          </label>
          @if (error(); as e) {
            <p class="error" role="alert">{{ e }}</p>
          }
          <button type="submit" class="button button--danger" [disabled]="busy() || !sure()">
            Delete my account
          </button>
        </form>
      }
    </section>
  `,
  styles: `
    .check {
      display: flex;
      gap: var(--space-2);
      align-items: center;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class DeleteAccountComponent {
  private readonly session = inject(SessionService);
  private readonly api = inject(ApiService);
  private readonly socket = inject(SocketClientService);
  private readonly router = inject(Router);

  /** how the account confirms it; null until the api has said (then, as most do, by password) */
  readonly how = input<AccountDeletionInfo | null>(null);
  /** the api refused this session's sign-in as no longer recent while the page was open */
  private readonly lapsed = signal(false);
  protected readonly confirmWith = computed(() => this.how()?.confirmWith ?? 'password');
  /** whether this session's sign-in still confirms it (an account without a password) */
  protected readonly recent = computed(() => {
    const until = this.how()?.recentUntil;
    return !this.lapsed() && until != null && Date.parse(until) > Date.now();
  });
  protected readonly password = signal('');
  protected readonly sure = signal(false);
  protected readonly busy = signal(false);
  protected readonly error = signal<string | null>(null);

  protected async deleteAccount(): Promise<void> {
    this.busy.set(true);
    this.error.set(null);
    try {
      const password = this.password();
      await this.api.deleteAccount(this.confirmWith() === 'password' ? { password } : {});
      this.socket.disconnect();
      this.session.end();
      await this.router.navigate(['/sign-in'], { queryParams: { signedOut: 'deleted' } });
    } catch (error: unknown) {
      this.busy.set(false);
      // A sign-in that stopped being recent while the page was open: offer to sign in again.
      if (toApiError(error).code === 'invalid_request' && this.confirmWith() === 'recent-sign-in') {
        this.lapsed.set(true);
        return;
      }
      this.error.set(describeError(error));
    }
  }

  /** Signs out here and goes to sign in, coming back to this page to finish. */
  protected async signInAgain(): Promise<void> {
    this.socket.disconnect();
    this.session.end();
    await this.router.navigate(['/sign-in'], {
      queryParams: { signedOut: 'confirm', returnUrl: '/account' },
    });
  }
}

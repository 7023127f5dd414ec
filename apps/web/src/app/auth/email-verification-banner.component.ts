import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';

import { describeError, toApiError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';

const LATER_KEY = 'sweatpants.email-reminder-later';

/**
 * A calm line above every page while the signed-in person's email is unproven: where the link
 * went, and "Send it again". The account works meanwhile; the banner goes once the link is opened
 * (the verify page renews this tab's session), or for this tab with "Later": on a phone it takes
 * a fifth of the chat's height.
 */
@Component({
  selector: 'app-email-verification-banner',
  template: `
    @if (session.user(); as user) {
      @if (!user.emailVerified && laterFor() !== user.id) {
        <div class="banner">
          <p class="small">
            Please confirm your email: we sent a link to <strong>{{ user.email }}</strong>.
            @if (sent()) {
              <span role="status">A new link is on its way.</span>
            }
            @if (error(); as e) {
              <span class="error" role="alert">{{ e }}</span>
            }
          </p>
          <button
            type="button"
            class="button button--quiet button--small"
            [disabled]="busy()"
            (click)="resend()"
          >
            Send it again
          </button>
          <button type="button" class="button button--quiet button--small" (click)="later(user.id)">
            Later
          </button>
        </div>
      }
    }
  `,
  styles: `
    .banner {
      display: flex;
      flex-wrap: wrap;
      gap: var(--space-2) var(--space-3);
      align-items: center;
      justify-content: space-between;
      padding: var(--space-2) var(--gutter);
      border-top: 1px solid var(--color-warn-border);
      background: var(--color-warn-bg);
    }
    .banner p {
      flex: 1 1 16rem;
      margin: 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class EmailVerificationBannerComponent {
  protected readonly session = inject(SessionService);
  private readonly api = inject(ApiService);

  protected readonly busy = signal(false);
  protected readonly sent = signal(false);
  protected readonly error = signal<string | null>(null);
  /** The account whose reminder was put off in this tab ("Later"): it comes back in a new tab. */
  protected readonly laterFor = signal(sessionStorage.getItem(LATER_KEY));

  protected later(userId: string): void {
    sessionStorage.setItem(LATER_KEY, userId);
    this.laterFor.set(userId);
  }

  protected async resend(): Promise<void> {
    this.busy.set(true);
    this.sent.set(false);
    this.error.set(null);
    try {
      await this.api.resendEmailVerification();
      this.sent.set(true);
    } catch (error: unknown) {
      // Proven meanwhile (in another tab, on another device): a fresh token says so.
      if (toApiError(error).code === 'conflict') await this.session.renew();
      else this.error.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }
}

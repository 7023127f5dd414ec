import { DatePipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, inject, signal } from '@angular/core';
import type { AccountSession } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';

/** How a session began, in words ("with a passkey"); a way the client does not know yet is named as is. */
const METHOD_WORDS: Record<string, string> = { password: 'with your password', passkey: 'with a passkey' };

/**
 * Where the person is signed in: each device in plain words ("Chrome on Linux"), how and when it
 * signed in and when it was last used, this one marked. Signing another out ends it at once, its
 * open pages included; this one signs out from the menu as ever.
 */
@Component({
  selector: 'app-sessions',
  imports: [DatePipe],
  template: `
    <section class="card stack" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you're signed in</h2>
      <p class="small muted">Sign out a device you don't recognise or no longer use.</p>
      @if (error(); as e) {
        <p class="error" role="alert">{{ e }}</p>
      }
      @if (notice(); as n) {
        <p class="small" role="status">{{ n }}</p>
      }
      @if (sessions(); as list) {
        <ul class="item-list" aria-label="Your signed-in devices">
          @for (session of list; track session.id) {
            <li>
              <div class="item-list__about">
                <strong class="item-list__name">
                  {{ session.device }}
                  @if (session.current) {
                    <span class="this-device">This device</span>
                  }
                </strong>
                <span class="small muted">
                  Signed in {{ method(session) }} on
                  <time [attr.datetime]="session.signedInAt">{{
                    session.signedInAt | date: 'MMM d, y'
                  }}</time>
                  · last used
                  <time [attr.datetime]="session.lastUsedAt">{{
                    session.lastUsedAt | date: 'MMM d, y, h:mm a'
                  }}</time>
                </span>
              </div>
              @if (!session.current) {
                <button
                  type="button"
                  class="button button--small"
                  [disabled]="busy()"
                  (click)="signOut(session)"
                >
                  Sign out<span class="visually-hidden"> {{ session.device }}</span>
                </button>
              }
            </li>
          }
        </ul>
      } @else if (!error()) {
        <p class="small muted" role="status">Loading…</p>
      }
    </section>
  `,
  styles: `
    .this-device {
      margin-left: var(--space-2);
      padding: 0 var(--space-2);
      border: 1px solid var(--color-border);
      border-radius: var(--radius-pill);
      font-size: 0.8125rem;
      font-weight: 500;
      white-space: nowrap;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SessionsComponent {
  private readonly api = inject(ApiService);

  /** null until the first list arrives */
  protected readonly sessions = signal<AccountSession[] | null>(null);
  protected readonly busy = signal(false);
  protected readonly error = signal<string | null>(null);
  protected readonly notice = signal<string | null>(null);

  constructor() {
    void this.load();
  }

  protected method(session: AccountSession): string {
    return METHOD_WORDS[session.signedInWith] ?? `with ${session.signedInWith}`;
  }

  protected async signOut(session: AccountSession): Promise<void> {
    this.busy.set(true);
    this.error.set(null);
    this.notice.set(null);
    try {
      await this.api.revokeSession(session.id);
      this.notice.set(`${session.device} is signed out.`);
      await this.load();
    } catch (error: unknown) {
      this.error.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }

  private async load(): Promise<void> {
    try {
      this.sessions.set((await this.api.sessions()).items);
      this.error.set(null);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }
}

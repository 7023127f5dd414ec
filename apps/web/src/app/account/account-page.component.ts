import { ChangeDetectionStrategy, Component, computed, inject, signal, type OnInit } from '@angular/core';
import { Router } from '@angular/router';
import type { AccountDeletionInfo } from '@sweatpants/domain';

import { SignInMethodsService } from '../auth/sign-in-methods.service';
import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { SocketClientService } from '../core/socket-client.service';
import { DeleteAccountComponent } from './delete-account.component';
import { PasskeysComponent } from './passkeys.component';
import { PersonalAccessTokensComponent } from './personal-access-tokens.component';
import { SessionsComponent } from './sessions.component';

/**
 * The signed-in person's account: a new password, a new email (confirmed again by mail), and signing out everywhere (a lost phone, a
 * shared computer). Both take back every session token given so far; a password change keeps this
 * tab in. Passkeys, signed-in devices and personal access tokens have sections of their own, each
 * removed or signed out one by one, and so has deleting the account.
 */
@Component({
  selector: 'app-account-page',
  imports: [DeleteAccountComponent, PasskeysComponent, PersonalAccessTokensComponent, SessionsComponent],
  template: `
    <div class="stack account">
      <h1>Your account</h1>
      @if (session.user(); as user) {
        <p class="muted">{{ user.displayName }} · {{ user.email }}</p>
      }

      @if (hasPassword()) {
        <section class="card stack" aria-labelledby="password-heading">
          <h2 id="password-heading">Change your password</h2>
          <form class="stack" novalidate (submit)="$event.preventDefault(); changePassword()">
            <label class="field">
              <span>Current password</span>
              <input
                #current
                class="input"
                type="password"
                name="currentPassword"
                autocomplete="current-password"
                [value]="currentPassword()"
                (input)="currentPassword.set(current.value)"
              />
            </label>
            <label class="field">
              <span>New password</span>
              <input
                #next
                class="input"
                type="password"
                name="newPassword"
                autocomplete="new-password"
                minlength="8"
                [value]="newPassword()"
                (input)="newPassword.set(next.value)"
              />
              <small class="muted"
                >At least 8 characters. You stay signed in here; everywhere else signs in again.</small
              >
            </label>
            @if (passwordError(); as e) {
              <p class="error" role="alert">{{ e }}</p>
            }
            @if (passwordChanged()) {
              <p class="small" role="status">Your password is changed. Other devices are signed out.</p>
            }
            <button type="submit" class="button button--primary" [disabled]="busy()">Change password</button>
          </form>
        </section>

        <section class="card stack" aria-labelledby="email-heading">
          <h2 id="email-heading">Change your email</h2>
          <form class="stack" novalidate (submit)="$event.preventDefault(); changeEmail()">
            <label class="field">
              <span>New email</span>
              <input
                #mail
                class="input"
                type="email"
                name="newEmail"
                autocomplete="email"
                [value]="newEmail()"
                (input)="newEmail.set(mail.value)"
              />
              <small class="muted"
                >We mail it a link to confirm it. You stay signed in here; everywhere else signs in
                again.</small
              >
            </label>
            <label class="field">
              <span>Your password, to confirm it is you</span>
              <input
                #emailPw
                class="input"
                type="password"
                name="emailPassword"
                autocomplete="current-password"
                [value]="emailPassword()"
                (input)="emailPassword.set(emailPw.value)"
              />
            </label>
            @if (emailError(); as e) {
              <p class="error" role="alert">{{ e }}</p>
            }
            @if (emailChanged(); as address) {
              <p class="small" role="status">
                Your email is now {{ address }}. Open the link we mailed there to confirm it.
              </p>
            }
            <button type="submit" class="button button--primary" [disabled]="busy()">Change email</button>
          </form>
        </section>
      } @else if (methods()?.password) {
        <section class="card stack" aria-labelledby="set-password-heading">
          <h2 id="set-password-heading">Set a password</h2>
          <p class="small muted">
            You have no password here: you sign in with
            {{ methods()?.oidc?.name ?? 'your identity provider' }}. A password lets you sign in without it,
            and change your email here. We mail you a link to set one.
          </p>
          @if (linkError(); as e) {
            <p class="error" role="alert">{{ e }}</p>
          }
          @if (linkSent()) {
            <p class="small" role="status">
              We mailed a link to {{ session.user()?.email }}. Open it to set your password.
            </p>
          } @else {
            <button type="button" class="button" [disabled]="busy()" (click)="mailPasswordLink()">
              Email me a link
            </button>
          }
        </section>
      }

      <app-passkeys />

      <app-sessions />

      <section class="card stack" aria-labelledby="export-heading">
        <h2 id="export-heading">Download your data</h2>
        <p class="small muted">
          A zip of every conversation (what was said, every branch, the history of changes), your photos and
          what the concierge keeps for you.
        </p>
        @if (exportError(); as e) {
          <p class="error" role="alert">{{ e }}</p>
        }
        <button type="button" class="button" [disabled]="busy()" (click)="download()">
          {{ downloading() ? 'Preparing…' : 'Download your data' }}
        </button>
      </section>

      <app-personal-access-tokens />

      <section class="card stack" aria-labelledby="everywhere-heading">
        <h2 id="everywhere-heading">Sign out everywhere</h2>
        <p class="small muted">
          Signs you out on every device and browser, this one too: for a lost phone or a shared computer.
        </p>
        @if (everywhereError(); as e) {
          <p class="error" role="alert">{{ e }}</p>
        }
        <button type="button" class="button" [disabled]="busy()" (click)="signOutEverywhere()">
          Sign out everywhere
        </button>
      </section>

      <app-delete-account [how]="how()" />
    </div>
  `,
  styles: `
    .account {
      max-width: 36rem;
      margin: 0 auto;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AccountPageComponent implements OnInit {
  protected readonly session = inject(SessionService);
  private readonly api = inject(ApiService);
  private readonly socket = inject(SocketClientService);
  private readonly router = inject(Router);

  private readonly signInMethods = inject(SignInMethodsService);

  /** How the account confirms it is you (GET /api/account/deletion): null until the api answers. */
  protected readonly how = signal<AccountDeletionInfo | null>(null);
  /** An account made through an identity provider has no password; until known, assume one. */
  protected readonly hasPassword = computed(() => this.how()?.confirmWith !== 'recent-sign-in');
  protected readonly methods = this.signInMethods.methods;
  protected readonly linkSent = signal(false);
  protected readonly linkError = signal<string | null>(null);
  protected readonly currentPassword = signal('');
  protected readonly newPassword = signal('');
  protected readonly busy = signal(false);
  protected readonly passwordError = signal<string | null>(null);
  protected readonly passwordChanged = signal(false);
  protected readonly everywhereError = signal<string | null>(null);
  protected readonly newEmail = signal('');
  protected readonly emailPassword = signal('');
  protected readonly emailError = signal<string | null>(null);
  /** the new address, once changed */
  protected readonly emailChanged = signal<string | null>(null);
  protected readonly downloading = signal(false);
  protected readonly exportError = signal<string | null>(null);

  async ngOnInit(): Promise<void> {
    void this.signInMethods.load();
    try {
      this.how.set(await this.api.accountDeletion());
    } catch {
      // Left unknown: the forms that ask for a password stay, and the api says what it wants.
    }
  }

  /** A password for an account without one: the reset link, mailed to the account's address. */
  protected async mailPasswordLink(): Promise<void> {
    const email = this.session.user()?.email;
    if (!email) return;
    this.busy.set(true);
    this.linkError.set(null);
    try {
      await this.api.requestPasswordReset({ email });
      this.linkSent.set(true);
    } catch (error: unknown) {
      this.linkError.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }

  /** Fetches the archive with the token (a plain link could not send it) and saves it as a file. */
  protected async download(): Promise<void> {
    this.busy.set(true);
    this.downloading.set(true);
    this.exportError.set(null);
    try {
      const zip = await this.api.exportAccount();
      const url = URL.createObjectURL(zip);
      const link = document.createElement('a');
      link.href = url;
      link.download = `sweatpants-export-${new Date().toISOString().slice(0, 10)}.zip`;
      link.click();
      // The click has handed the file over; the URL is not needed after this turn.
      setTimeout(() => URL.revokeObjectURL(url));
    } catch (error: unknown) {
      this.exportError.set(describeError(error));
    } finally {
      this.downloading.set(false);
      this.busy.set(false);
    }
  }

  protected async changePassword(): Promise<void> {
    this.busy.set(true);
    this.passwordError.set(null);
    this.passwordChanged.set(false);
    try {
      const fresh = await this.api.changePassword({
        currentPassword: this.currentPassword(),
        newPassword: this.newPassword(),
      });
      // The old token is refused from now on: this tab carries on with the fresh one.
      this.socket.disconnect();
      this.session.start(fresh);
      this.currentPassword.set('');
      this.newPassword.set('');
      this.passwordChanged.set(true);
    } catch (error: unknown) {
      this.passwordError.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }

  protected async changeEmail(): Promise<void> {
    this.busy.set(true);
    this.emailError.set(null);
    this.emailChanged.set(null);
    try {
      const fresh = await this.api.changeEmail({ email: this.newEmail(), password: this.emailPassword() });
      // Every earlier token named the old address and is refused now: this tab carries on with the fresh one.
      this.socket.disconnect();
      this.session.start(fresh);
      this.newEmail.set('');
      this.emailPassword.set('');
      this.emailChanged.set(fresh.user.email);
    } catch (error: unknown) {
      this.emailError.set(describeError(error));
    } finally {
      this.busy.set(false);
    }
  }

  protected async signOutEverywhere(): Promise<void> {
    this.busy.set(true);
    this.everywhereError.set(null);
    try {
      await this.api.signOutEverywhere();
      this.socket.disconnect();
      this.session.end();
      await this.router.navigate(['/sign-in'], { queryParams: { signedOut: 'everywhere' } });
    } catch (error: unknown) {
      this.everywhereError.set(describeError(error));
      this.busy.set(false);
    }
  }
}

import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { ActivatedRoute, Router, RouterLink } from '@angular/router';
import { OIDC_LOGIN_PATH, OidcErrorSchema } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { describePasskeyError, passkeyPrompt } from '../core/passkey-prompt';
import { SESSION_ENDED, SessionService } from '../core/session.service';
import { oidcErrorWords } from './oidc-error-words';
import { SignInMethodsService } from './sign-in-methods.service';

/**
 * Sign in (with the identity provider, a passkey and nothing else, or a password), or (route data
 * `mode: 'sign-up'`) create an account; a refusal is said once, in plain words.
 */
@Component({
  selector: 'app-sign-in-page',
  imports: [RouterLink],
  template: `
    <section class="card stack auth" aria-labelledby="auth-heading">
      <h1 id="auth-heading">{{ signUp() ? 'Create an account' : 'Sign in' }}</h1>
      @if (notice(); as n) {
        <p class="small" role="status">{{ n }}</p>
      }
      @if (adopting()) {
        <p role="status">Signing you in…</p>
      }
      @if (providerRefusal(); as refusal) {
        <p class="error" role="alert">{{ refusal }}</p>
      }
      @if (methods(); as m) {
        @if (m.oidc; as provider) {
          <a class="button provider" [class.button--primary]="!m.password" [href]="providerLink()"
            >Sign in with {{ provider.name }}</a
          >
        }
        @if (!signUp() && passkeys) {
          <button type="button" class="button provider" [disabled]="busy()" (click)="signInWithPasskey()">
            Sign in with a passkey
          </button>
          @if (passkeyError(); as e) {
            <p class="error" role="alert">{{ e }}</p>
          }
        }
        @if (m.password) {
          @if (m.oidc || (!signUp() && passkeys)) {
            <p class="small muted or">or with your email and password</p>
          }
          <!-- novalidate: the api checks every field; core/api-error.ts says what is wrong in plain words. -->
          <form class="stack" novalidate (submit)="$event.preventDefault(); submit()">
            @if (signUp()) {
              <label class="field">
                <span>Your name</span>
                <input
                  #name
                  class="input"
                  name="displayName"
                  autocomplete="name"
                  required
                  (input)="displayName.set(name.value)"
                />
              </label>
            }
            <label class="field">
              <span>Email</span>
              <input
                #mail
                class="input"
                name="email"
                type="email"
                autocomplete="email"
                required
                (input)="email.set(mail.value)"
              />
            </label>
            <label class="field">
              <span>Password</span>
              <input
                #pass
                class="input"
                name="password"
                type="password"
                required
                [attr.minlength]="signUp() ? 8 : null"
                [autocomplete]="signUp() ? 'new-password' : 'current-password'"
                (input)="password.set(pass.value)"
              />
              @if (signUp()) {
                <small class="muted">At least 8 characters.</small>
              }
            </label>
            @if (error(); as e) {
              <p class="error" role="alert">{{ e }}</p>
            }
            <button type="submit" class="button button--primary" [disabled]="busy()">
              {{ signUp() ? 'Create account' : 'Sign in' }}
            </button>
          </form>
          @if (signUp()) {
            <p class="small">
              Already have an account? <a routerLink="/sign-in" [queryParams]="carryOn()">Sign in</a>
            </p>
          } @else {
            <p class="small"><a routerLink="/forgot-password">Forgot password?</a></p>
            <p class="small">
              New here? <a routerLink="/sign-up" [queryParams]="carryOn()">Create an account</a>
            </p>
          }
        } @else if (signUp()) {
          <p>Accounts here are made by signing in with {{ m.oidc?.name }}.</p>
        }
      }
    </section>
  `,
  styles: `
    .auth {
      max-width: 26rem;
      margin: var(--space-6) auto;
    }
    .provider {
      width: 100%;
    }
    .or {
      text-align: center;
      margin: 0;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class SignInPageComponent {
  private readonly api = inject(ApiService);
  private readonly session = inject(SessionService);
  private readonly router = inject(Router);
  private readonly route = inject(ActivatedRoute);

  protected readonly signUp = computed(() => this.route.snapshot.data['mode'] === 'sign-up');
  /**
   * Why the person is here, when they were just signed out: the account page's "Sign out
   * everywhere", or a session that ended under them (SessionService.expire).
   */
  protected readonly notice = computed(() => {
    switch (this.route.snapshot.queryParamMap.get('signedOut')) {
      case SESSION_ENDED:
        return 'Your session ended; sign in again to carry on.';
      case 'everywhere':
        return 'You are signed out on every device. Sign in again here.';
      case 'deleted':
        return 'Your account and everything in it are deleted.';
      case 'confirm':
        return 'Sign in again to confirm it is you; then you can delete your account.';
      default:
        return null;
    }
  });
  private readonly signInMethods = inject(SignInMethodsService);
  /** What this deployment offers (GET /api/auth/methods); null until it has answered. */
  protected readonly methods = this.signInMethods.methods;
  /** Back from the identity provider, signed in: the session is being taken up. */
  protected readonly adopting = signal(false);
  /** Why the identity provider's sign-in did not sign the person in, in plain words. */
  protected readonly providerRefusal = signal<string | null>(null);
  protected readonly email = signal('');
  protected readonly password = signal('');
  protected readonly displayName = signal('');
  protected readonly error = signal<string | null>(null);
  protected readonly passkeyError = signal<string | null>(null);
  protected readonly busy = signal(false);
  /** whether this browser can sign in with a passkey at all */
  protected readonly passkeys = passkeyPrompt.supported();
  /** Where the person was when they were sent here; only a path of this app is followed. */
  protected readonly returnUrl = computed(() =>
    safeReturnUrl(this.route.snapshot.queryParamMap.get('returnUrl')),
  );
  /** The page to come back to, kept when switching between sign-in and sign-up. */
  protected readonly carryOn = computed(() => {
    const returnUrl = this.returnUrl();
    return returnUrl ? { returnUrl } : {};
  });

  /** The provider's button: a navigation to the api, which sends the browser on to the provider. */
  protected readonly providerLink = computed(() => {
    const returnUrl = this.returnUrl();
    return returnUrl
      ? `${OIDC_LOGIN_PATH}?${new URLSearchParams({ returnUrl }).toString()}`
      : OIDC_LOGIN_PATH;
  });

  constructor() {
    const query = this.route.snapshot.queryParamMap;
    void this.signInMethods.load().then((methods) => {
      const reason = OidcErrorSchema.safeParse(query.get('oidcError'));
      if (reason.success) this.providerRefusal.set(oidcErrorWords(reason.data, methods.oidc?.name));
    });
    if (query.get('via') === 'oidc') void this.adoptProviderSession();
  }

  /** The api signed the person in at the provider's return and set the session's cookie: take it up. */
  private async adoptProviderSession(): Promise<void> {
    this.adopting.set(true);
    try {
      await this.session.adopt();
      await this.router.navigateByUrl(this.returnUrl() ?? '/');
    } catch {
      this.providerRefusal.set(oidcErrorWords('failed', this.methods()?.oidc?.name));
    } finally {
      this.adopting.set(false);
    }
  }

  protected async submit(): Promise<void> {
    this.busy.set(true);
    this.error.set(null);
    try {
      const auth = this.signUp()
        ? await this.api.register({
            email: this.email(),
            password: this.password(),
            displayName: this.displayName(),
          })
        : await this.api.login({ email: this.email(), password: this.password() });
      this.session.start(auth);
      await this.router.navigateByUrl(this.returnUrl() ?? '/');
    } catch (error: unknown) {
      this.error.set(describeError(error, this.signUp() ? 'sign-up' : 'sign-in'));
    } finally {
      this.busy.set(false);
    }
  }
  /** The browser asks which passkey (and the person's fingerprint or screen lock); no email needed. */
  protected async signInWithPasskey(): Promise<void> {
    this.busy.set(true);
    this.error.set(null);
    this.passkeyError.set(null);
    try {
      const options = await this.api.passkeySignInOptions();
      const auth = await this.api.passkeySignIn(await passkeyPrompt.get(options));
      this.session.start(auth);
      await this.router.navigateByUrl(this.returnUrl() ?? '/');
    } catch (error: unknown) {
      this.passkeyError.set(describePasskeyError(error, 'passkey-sign-in'));
    } finally {
      this.busy.set(false);
    }
  }
}

/**
 * A path inside this app, or null: never another origin (`//evil.example`, `/\\evil.example`, a
 * full URL), so a link to the sign-in page cannot send a person elsewhere once they signed in.
 */
export function safeReturnUrl(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith('/sign-in') || value.startsWith('/sign-up')) return null;
  return value;
}

import type { DialogRef } from '@angular/cdk/dialog';
import {
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  effect,
  inject,
  Injector,
  signal,
} from '@angular/core';
import { ActivatedRouteSnapshot, NavigationEnd, Router, RouterLink, RouterOutlet } from '@angular/router';

import { EmailVerificationBannerComponent } from './auth/email-verification-banner.component';
import { ConversationListService } from './conversations/conversation-list.service';
import { ConversationSidebarComponent } from './conversations/conversation-sidebar.component';
import { PendingArchives } from './conversations/pending-archives';
import { UndoToastComponent } from './conversations/undo-toast.component';
import { SignInMethodsService } from './auth/sign-in-methods.service';
import { ApiService } from './core/api.service';
import { SessionService } from './core/session.service';
import { AgentsService } from './conversations/agents.service';
import { SocketClientService } from './core/socket-client.service';
import { FILLS_WINDOW } from './app.routes';
import { HealthService } from './health/health.service';
import { matchesMedia } from './core/media-query';

/** Wide enough for the conversations beside the page; narrower, they open as a drawer. */
const WIDE = '(min-width: 56.25rem)';

/**
 * The shell: a top bar (product, offline-model label, who is signed in), the conversations (a
 * sidebar on a wide screen, a drawer behind the menu button on a phone), the routed page, and the
 * toast that offers to undo a delete.
 */
@Component({
  selector: 'app-root',
  imports: [
    ConversationSidebarComponent,
    EmailVerificationBannerComponent,
    RouterLink,
    RouterOutlet,
    UndoToastComponent,
  ],
  templateUrl: './app.component.html',
  styleUrl: './app.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class.with-sidebar]': 'sidebar()', '[class.fills-window]': 'fillsWindow()' },
})
export class AppComponent {
  protected readonly health = inject(HealthService);
  protected readonly session = inject(SessionService);
  private readonly signInMethods = inject(SignInMethodsService);
  /** No sign-up in the top bar where accounts come from the identity provider only. */
  protected readonly signUpOffered = computed(() => this.signInMethods.methods()?.password !== false);
  private readonly api = inject(ApiService);
  private readonly socket = inject(SocketClientService);
  private readonly router = inject(Router);
  private readonly injector = inject(Injector);
  private readonly archives = inject(PendingArchives);
  private drawer: DialogRef<unknown, ConversationSidebarComponent> | null = null;
  private drawerLoading = false;

  protected readonly wide = matchesMedia(WIDE);
  protected readonly sidebar = computed(() => this.session.signedIn() && this.wide());
  protected readonly drawerOpen = signal(false);
  /** The page open fills the window (the chat): the top bar stays and the page scrolls inside. */
  protected readonly fillsWindow = signal(false);

  constructor() {
    // Created now, so the list follows navigations from the first one on.
    inject(ConversationListService);
    // Asked once at start so the top bar can say whether replies come from the offline model.
    void this.health.check();
    // …and whether to offer a sign-up (none where the identity provider makes the accounts).
    void this.signInMethods.load();
    // The stored user may be stale (a new admin, say); a 401 here signs out through the interceptor.
    if (this.session.signedIn()) {
      this.api
        .me()
        .then((user) => this.session.refreshUser(user))
        .catch(() => undefined);
    }
    // The drawer closes when a page is chosen, when the screen grows wide enough for the
    // sidebar, and when the session ends.
    const navigation = this.router.events.subscribe((event) => {
      if (event instanceof NavigationEnd) {
        this.closeDrawer();
        this.fillsWindow.set(deepest(this.router.routerState.snapshot.root).data[FILLS_WINDOW] === true);
      }
    });
    inject(DestroyRef).onDestroy(() => navigation.unsubscribe());
    effect(() => {
      if (this.wide() || !this.session.signedIn()) this.closeDrawer();
    });
    // The agents name themselves in history and label the list: read once someone is signed in.
    const agents = inject(AgentsService);
    effect(() => {
      if (this.session.signedIn()) void agents.load();
    });
  }

  /**
   * The conversations as a drawer from the left; cdk's dialog traps focus and gives it back. Both
   * are loaded on the first tap, so a phone's first page does not wait for them.
   */
  protected async openDrawer(): Promise<void> {
    if (this.drawer || this.drawerLoading) return;
    this.drawerLoading = true;
    try {
      const [{ Dialog }, { createGlobalPositionStrategy }, { ConversationSidebarComponent: Sidebar }] =
        await Promise.all([
          import('@angular/cdk/dialog'),
          import('@angular/cdk/overlay'),
          import('./conversations/conversation-sidebar.component'),
        ]);
      if (this.wide()) return;
      const drawer = this.injector.get(Dialog).open(Sidebar, {
        ariaLabel: 'Conversations',
        panelClass: 'drawer-panel',
        positionStrategy: createGlobalPositionStrategy(this.injector).left('0').top('0'),
        width: 'min(20rem, 88vw)',
        height: '100%',
      });
      this.drawer = drawer;
      this.drawerOpen.set(true);
      drawer.closed.subscribe(() => {
        if (this.drawer === drawer) this.drawer = null;
        this.drawerOpen.set(false);
      });
    } finally {
      this.drawerLoading = false;
    }
  }

  protected async signOut(): Promise<void> {
    // Archives still waiting for their Undo go out while the token still works.
    this.archives.flush();
    this.socket.disconnect();
    this.session.end();
    await this.router.navigate(['/sign-in']);
  }

  private closeDrawer(): void {
    this.drawer?.close();
  }
}

/** The route a page is drawn for: the innermost activated one. */
function deepest(route: ActivatedRouteSnapshot): ActivatedRouteSnapshot {
  let current = route;
  while (current.firstChild) current = current.firstChild;
  return current;
}

import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { Router, RouterLink } from '@angular/router';
import { RouterOutlet } from '@angular/router';

import { ApiService } from './core/api.service';
import { SessionService } from './core/session.service';
import { SocketClientService } from './core/socket-client.service';
import { HealthService } from './health/health.service';

/** The shell: a top bar (product, offline-model label, who is signed in) and the routed page. */
@Component({
  selector: 'app-root',
  imports: [RouterLink, RouterOutlet],
  templateUrl: './app.component.html',
  styleUrl: './app.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AppComponent {
  protected readonly health = inject(HealthService);
  protected readonly session = inject(SessionService);
  private readonly api = inject(ApiService);
  private readonly socket = inject(SocketClientService);
  private readonly router = inject(Router);

  constructor() {
    // Asked once at start so the top bar can say whether replies come from the offline model.
    void this.health.check();
    // The stored user may be stale (a new admin, say); a 401 here signs out through the interceptor.
    if (this.session.signedIn()) {
      this.api
        .me()
        .then((user) => this.session.refreshUser(user))
        .catch(() => undefined);
    }
  }

  protected async signOut(): Promise<void> {
    this.socket.disconnect();
    this.session.end();
    await this.router.navigate(['/sign-in']);
  }
}

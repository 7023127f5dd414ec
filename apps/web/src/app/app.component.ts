import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { RouterLink, RouterOutlet } from '@angular/router';

import { HealthService } from './health/health.service';

/** The shell: a top bar with the product name and the offline-model label, and the routed page. */
@Component({
  selector: 'app-root',
  imports: [RouterLink, RouterOutlet],
  templateUrl: './app.component.html',
  styleUrl: './app.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class AppComponent {
  protected readonly health = inject(HealthService);

  constructor() {
    // Asked once at start so the top bar can say whether replies come from the offline model.
    void this.health.check();
  }
}

import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import type { Health } from '@sweatpants/domain';

import { HealthService } from '../health/health.service';

interface StatusItem {
  readonly label: string;
  readonly value: string;
}

// Records keyed by the schema's enums: a new value in HealthSchema fails to compile until named here.
const DATABASE_LABELS: Record<Health['db'], string> = { ok: 'ok' };
const QUEUE_LABELS: Record<Health['queue'], string> = { ok: 'Redis', 'in-process': 'in-process' };
const MODEL_LABELS: Record<Health['model'], string> = { claude: 'Claude', offline: 'offline' };

/** The one page for now: what the api runs on, from `GET /api/health`. */
@Component({
  selector: 'app-status-page',
  templateUrl: './status-page.component.html',
  styleUrl: './status-page.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class StatusPageComponent {
  protected readonly health = inject(HealthService);

  protected readonly items = computed<readonly StatusItem[] | null>(() => {
    const result = this.health.result();
    if (result?.kind !== 'ok') return null;
    return [
      { label: 'Database', value: DATABASE_LABELS[result.health.db] },
      { label: 'Queue', value: QUEUE_LABELS[result.health.queue] },
      { label: 'Model', value: MODEL_LABELS[result.health.model] },
    ];
  });

  protected readonly problem = computed<string | null>(() => {
    const result = this.health.result();
    switch (result?.kind) {
      case undefined:
      case 'ok':
        return null;
      case 'unreachable':
        return `Cannot reach the api: ${result.reason}.`;
      case 'invalid':
        return `The api answered in a shape this client does not understand (${result.reason}).`;
    }
  });

  protected checkAgain(): void {
    void this.health.check();
  }
}

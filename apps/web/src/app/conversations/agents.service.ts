import { computed, inject, Injectable, signal } from '@angular/core';
import type { AgentInfo } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';

/**
 * The agents the deployment runs (`GET /api/agents`), read once per page load: the new-conversation
 * page offers them, the sidebar labels conversations with their titles, and history in words names
 * them ("the coach"). Until they arrive an agent is "the assistant".
 */
@Injectable({ providedIn: 'root' })
export class AgentsService {
  private readonly api = inject(ApiService);
  private readonly loaded = signal<readonly AgentInfo[]>([]);
  private loading: Promise<void> | null = null;

  /** in the order the deployment registered them */
  readonly list = this.loaded.asReadonly();
  /** agent name → how history in words names it */
  readonly speakers = computed(() => new Map(this.loaded().map((a) => [a.name, a.speaker])));

  /** Reads the list, once; a failure leaves it empty and is tried again on the next call. */
  load(): Promise<void> {
    this.loading ??= this.api.agents().then(
      ({ items }) => this.loaded.set(items),
      () => {
        this.loading = null;
      },
    );
    return this.loading;
  }

  /** What a person picks an agent by ("Tidying coach"); its name until the list arrives. */
  label(name: string): string {
    return this.title(name) ?? name;
  }

  /** The agent's title, or undefined until the list arrives (or for an agent it does not hold). */
  title(name: string): string | undefined {
    return this.loaded().find((a) => a.name === name)?.title;
  }

  /** Whether the agent asks for photos (its `needs`); true until the list arrives. */
  takesPhotos(name: string): boolean {
    return (
      this.loaded()
        .find((a) => a.name === name)
        ?.needs.includes('photos') ?? true
    );
  }

  /** Sets the list without asking the api: for specs and stories. */
  use(agents: readonly AgentInfo[]): void {
    this.loading = Promise.resolve();
    this.loaded.set(agents);
  }
}

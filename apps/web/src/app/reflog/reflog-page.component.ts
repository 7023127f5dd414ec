import { Dialog } from '@angular/cdk/dialog';
import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  Injector,
  signal,
  untracked,
} from '@angular/core';
import type { ReflogEntry } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { SessionService } from '../core/session.service';
import { ConversationStore } from '../conversation/conversation-store.service';
import {
  INSPECTOR_DIALOG,
  PathInspectorComponent,
  type PathInspectorData,
} from '../conversation/path-inspector.component';
import { type ReflogRow, ReflogViewComponent } from './reflog-view.component';

const PAGE = 50;

/** The Reflog tab: what happened, in words, with inspect and recover; reloads when HEAD moves. */
@Component({
  selector: 'app-reflog-page',
  imports: [ReflogViewComponent],
  template: `
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    <app-reflog-view
      [entries]="entries()"
      [nodes]="store.tree()"
      [onPath]="onPath()"
      [head]="store.head()"
      [you]="you()"
      [owner]="store.conversation()?.ownerId ?? null"
      [agent]="store.conversation()?.agent ?? null"
      [readonly]="store.readonly()"
      (inspect)="inspect($event)"
      (recover)="recover($event)"
    />
    @if (next()) {
      <div class="row more">
        <button type="button" class="button" (click)="load(true)">Earlier</button>
      </div>
    }
  `,
  styles: `
    .more {
      margin-top: var(--space-4);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ReflogPageComponent {
  protected readonly store = inject(ConversationStore);
  private readonly dialog = inject(Dialog);
  private readonly injector = inject(Injector);
  private readonly session = inject(SessionService);

  protected readonly entries = signal<ReflogEntry[]>([]);
  protected readonly next = signal<string | null>(null);
  protected readonly error = signal<string | null>(null);
  protected readonly you = computed(() => this.session.user()?.id ?? null);
  /** the ids on HEAD's path, once it is loaded: entries off it are discarded branches */
  protected readonly onPath = computed(() => (this.store.path().length > 0 ? this.store.onHead() : null));

  constructor() {
    effect(() => {
      this.store.head();
      if (this.store.id()) untracked(() => void this.load(false));
    });
  }

  protected async load(older: boolean): Promise<void> {
    try {
      const before = older ? (this.next() ?? undefined) : undefined;
      const page = await this.store.reader.reflog(this.store.id(), {
        limit: PAGE,
        ...(before ? { before } : {}),
      });
      this.entries.update((list) => (older ? [...list, ...page.entries] : page.entries));
      this.next.set(page.next);
      this.error.set(null);
    } catch (error: unknown) {
      this.error.set(describeError(error));
    }
  }

  protected inspect(entry: ReflogRow): void {
    this.dialog.open<unknown, PathInspectorData>(PathInspectorComponent, {
      data: { at: entry.newHead, title: 'The conversation at this point' },
      injector: this.injector,
      ...INSPECTOR_DIALOG,
    });
  }

  protected async recover(entry: ReflogRow): Promise<void> {
    if (await this.store.recover(entry.id)) await this.load(false);
  }
}

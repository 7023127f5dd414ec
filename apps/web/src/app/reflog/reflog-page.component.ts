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
import { ConversationStore } from '../conversation/conversation-store.service';
import { nodePreview } from '../conversation/node-text';
import { PathInspectorComponent, type PathInspectorData } from '../conversation/path-inspector.component';
import { type ReflogRow, ReflogViewComponent } from './reflog-view.component';

const PAGE = 50;

/** The Reflog tab: every HEAD move, with inspect and recover; reloads when HEAD moves. */
@Component({
  selector: 'app-reflog-page',
  imports: [ReflogViewComponent],
  template: `
    @if (error(); as e) {
      <p class="error" role="alert">{{ e }}</p>
    }
    <app-reflog-view
      [entries]="entries()"
      [previews]="previews()"
      [head]="store.head()"
      [readonly]="store.readonly()"
      (inspect)="inspect($event)"
      (recover)="recover($event)"
    />
    @if (next()) {
      <div class="row more">
        <button type="button" class="button" (click)="load(true)">Older moves</button>
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

  protected readonly entries = signal<ReflogEntry[]>([]);
  protected readonly next = signal<string | null>(null);
  protected readonly error = signal<string | null>(null);
  protected readonly previews = computed(() => {
    const map = new Map<string, string>();
    for (const node of this.store.tree().values()) map.set(node.id, `${node.kind}: ${nodePreview(node)}`);
    return map;
  });

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
      data: { at: entry.newHead, title: `Where HEAD@{${entry.index}} pointed` },
      injector: this.injector,
      ariaLabelledBy: 'inspector-title',
      panelClass: 'dialog-panel',
    });
  }

  protected async recover(entry: ReflogRow): Promise<void> {
    if (await this.store.recover(entry.id)) await this.load(false);
  }
}

import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';

import { ConversationStore } from '../conversation/conversation-store.service';
import { SessionService } from '../core/session.service';
import { TreeViewComponent } from './tree-view.component';

/** The Tree tab: the store's whole tree, HEAD moves through the store. */
@Component({
  selector: 'app-tree-page',
  imports: [TreeViewComponent],
  template: `
    <app-tree-view
      [nodes]="nodes()"
      [headPath]="store.onHead()"
      [head]="store.head()"
      [readonly]="store.readonly()"
      [you]="you()"
      (moveHead)="store.rewind($event)"
    />
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class TreePageComponent {
  protected readonly store = inject(ConversationStore);
  private readonly session = inject(SessionService);
  protected readonly nodes = computed(() => [...this.store.tree().values()]);
  protected readonly you = computed(() => this.session.user()?.id ?? null);

  constructor() {
    // The shell loaded the tree once; HEAD may have moved elsewhere since.
    void this.store.refreshTree().catch(() => undefined);
  }
}

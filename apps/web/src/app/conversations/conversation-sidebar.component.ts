import { DialogRef } from '@angular/cdk/dialog';
import { CdkMenu, CdkMenuItem, CdkMenuTrigger } from '@angular/cdk/menu';
import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  ElementRef,
  inject,
  Injector,
  signal,
} from '@angular/core';
import { Router, RouterLink } from '@angular/router';
import type { Conversation } from '@sweatpants/domain';

import { AgentsService } from './agents.service';
import { ArchivedConversations } from './archived-conversations';
import { ConversationListService } from './conversation-list.service';
import { PendingArchives } from './pending-archives';
import { fullTime, relativeTime } from './relative-time';
import { TitleEditorComponent } from './title-editor.component';
import { UndoToastComponent } from './undo-toast.component';

let nextId = 0;

/**
 * The conversations, by last activity: a sidebar beside the app on a wide screen, the same list in
 * a drawer (a cdk dialog, which then provides the DialogRef) on a phone. Each one can be renamed in
 * place or archived with a moment to undo; a search narrows the list by title. Archived, at the
 * foot, lists what was archived, each with Unarchive.
 */
@Component({
  selector: 'app-conversation-sidebar',
  imports: [CdkMenu, CdkMenuItem, CdkMenuTrigger, RouterLink, TitleEditorComponent, UndoToastComponent],
  templateUrl: './conversation-sidebar.component.html',
  styleUrl: './conversation-sidebar.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConversationSidebarComponent {
  protected readonly list = inject(ConversationListService);
  protected readonly archived = inject(ArchivedConversations);
  private readonly archives = inject(PendingArchives);
  private readonly router = inject(Router);
  private readonly injector = inject(Injector);
  private readonly host = inject<ElementRef<HTMLElement>>(ElementRef);
  /** Set when the list is the phone's drawer. */
  protected readonly drawer = inject(DialogRef, { optional: true });

  protected readonly searchId = `conversation-search-${nextId++}`;
  protected readonly archivedId = `archived-conversations-${nextId++}`;
  /** The conversation whose title is being edited. */
  protected readonly editing = signal<string | null>(null);
  private readonly agents = inject(AgentsService);
  protected readonly agentLabel = (name: string): string => this.agents.label(name);
  protected readonly relativeTime = relativeTime;
  protected readonly fullTime = fullTime;

  constructor() {
    void this.agents.load();
  }

  protected closeDrawer(): void {
    this.drawer?.close();
  }

  protected renamed(conversation: Conversation): void {
    this.editing.set(null);
    this.focusAfterRender(conversation.id, '.item__actions');
  }

  /**
   * Hidden now, archived once the undo window ends; leaving it first if it is the open one (Undo
   * comes back to it).
   */
  protected archive(conversation: Conversation): void {
    const ids = (this.list.items() ?? []).map((c) => c.id);
    const index = ids.indexOf(conversation.id);
    const after = ids.filter((id) => id !== conversation.id)[Math.max(0, Math.min(index, ids.length - 2))];
    const open = this.list.currentId() === conversation.id;
    this.archives.archive(conversation, open);
    if (open) void this.router.navigate(['/']);
    // The menu's trigger went with the item: focus the next one, so the keyboard is not lost.
    this.focusAfterRender(after ?? null, 'a');
  }

  /** Back into the list, where the keyboard follows it. */
  protected async unarchive(conversation: Conversation): Promise<void> {
    if (await this.archived.unarchive(conversation)) this.focusAfterRender(conversation.id, 'a');
  }

  /** Focuses `part` of the item `id` (the search field without one) once the list has rendered. */
  private focusAfterRender(id: string | null, part: string): void {
    afterNextRender(
      () => {
        const host = this.host.nativeElement;
        const item = Array.from(host.querySelectorAll<HTMLElement>('li[data-id]')).find(
          (li) => li.dataset['id'] === id,
        );
        (
          item?.querySelector<HTMLElement>(part) ?? host.querySelector<HTMLElement>('input[type=search]')
        )?.focus();
      },
      { injector: this.injector },
    );
  }
}

import {
  afterNextRender,
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  effect,
  type ElementRef,
  inject,
  Injector,
  signal,
  viewChild,
} from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { ActivatedRoute, RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
import type { Conversation, FsckReport } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ConversationUsageComponent } from './conversation-usage.component';
import { ApiService } from '../core/api.service';
import { TabTitleStrategy } from '../core/tab-title';
import { AgentsService } from '../conversations/agents.service';
import { TitleEditorComponent } from '../conversations/title-editor.component';
import { ElicitProgress } from '../elicit/elicit-progress';
import { ConversationStore } from './conversation-store.service';
import { statusWords } from './status-words';

/**
 * A conversation's frame: title, badges and the Chat / Tree / Reflog tabs. It owns the
 * ConversationStore the tabs share, in owner mode or (route data `admin`) read-only admin mode.
 */
@Component({
  selector: 'app-conversation-shell',
  imports: [ConversationUsageComponent, RouterLink, RouterLinkActive, RouterOutlet, TitleEditorComponent],
  providers: [
    ConversationStore,
    // A question's widget reports its progress to the agent through this conversation.
    {
      provide: ElicitProgress,
      useFactory: (): ElicitProgress => {
        const store = inject(ConversationStore);
        return { report: (payload, elicitId) => store.reportProgress(payload, elicitId) };
      },
    },
  ],
  templateUrl: './conversation-shell.component.html',
  styleUrl: './conversation-shell.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConversationShellComponent {
  protected readonly store = inject(ConversationStore);
  /** The agent is shown by its title ("Donation helper"), as the list and the sidebar show it. */
  protected readonly agents = inject(AgentsService);
  private readonly api = inject(ApiService);
  private readonly route = inject(ActivatedRoute);

  protected readonly fsck = signal<FsckReport | null>(null);
  protected readonly fsckError = signal<string | null>(null);
  protected readonly title = computed(() => {
    const conversation = this.store.conversation();
    return conversation ? conversation.title || 'New conversation' : 'Conversation';
  });
  /** The title is being edited in place. */
  protected readonly renaming = signal(false);
  protected readonly canRename = computed(() => !this.store.admin() && this.store.conversation() !== null);
  private readonly renameButton = viewChild<ElementRef<HTMLButtonElement>>('renameButton');
  private readonly injector = inject(Injector);
  /** Read from the status and the pending question: "waiting" only when something waits. */
  protected readonly statusLabel = computed(() => statusWords(this.store.status(), this.store.pending()));
  protected readonly base = computed(() =>
    this.store.admin() ? ['/admin/c', this.store.id()] : ['/c', this.store.id()],
  );

  constructor() {
    this.agents.load().catch(() => undefined);
    // The browser tab is named by the conversation, and follows a rename or a title taken from the
    // first words (TabTitleStrategy adds the open tab: " · Tree").
    const tabTitle = inject(TabTitleStrategy);
    effect(() => {
      const conversation = this.store.conversation();
      tabTitle.setConversationTitle(conversation ? this.title() : null);
    });
    inject(DestroyRef).onDestroy(() => tabTitle.setConversationTitle(null));
    const admin = this.route.snapshot.data['admin'] === true;
    this.route.paramMap.pipe(takeUntilDestroyed()).subscribe((params) => {
      const id = params.get('id');
      if (id) void this.store.open(id, admin);
      this.fsck.set(null);
      this.renaming.set(false);
    });
  }

  protected startRename(): void {
    if (this.canRename()) this.renaming.set(true);
  }

  /** The edit ended: the header and the tab show the new title; focus goes back to Rename. */
  protected renamed(conversation: Conversation | null): void {
    if (conversation) {
      this.store.conversation.update((c) =>
        c?.id === conversation.id ? { ...c, title: conversation.title } : c,
      );
    }
    this.renaming.set(false);
    afterNextRender(() => this.renameButton()?.nativeElement.focus(), { injector: this.injector });
  }

  protected async runFsck(): Promise<void> {
    this.fsckError.set(null);
    try {
      this.fsck.set(await this.api.fsck(this.store.id()));
    } catch (error: unknown) {
      this.fsckError.set(describeError(error));
    }
  }
}

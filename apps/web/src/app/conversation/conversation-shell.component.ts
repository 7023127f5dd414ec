import { ChangeDetectionStrategy, Component, computed, effect, inject, signal } from '@angular/core';
import { takeUntilDestroyed, toSignal } from '@angular/core/rxjs-interop';
import { Title } from '@angular/platform-browser';
import {
  ActivatedRoute,
  NavigationEnd,
  Router,
  RouterLink,
  RouterLinkActive,
  RouterOutlet,
} from '@angular/router';
import { filter } from 'rxjs';
import type { FsckReport } from '@sweatpants/domain';

import { describeError } from '../core/api-error';
import { ApiService } from '../core/api.service';
import { ConversationStore } from './conversation-store.service';

const STATUS_LABELS = { running: 'working', waiting: 'waiting for you', idle: 'idle' } as const;

/**
 * A conversation's frame: title, badges and the Chat / Tree / Reflog tabs. It owns the
 * ConversationStore the tabs share, in owner mode or (route data `admin`) read-only admin mode.
 */
@Component({
  selector: 'app-conversation-shell',
  imports: [RouterLink, RouterLinkActive, RouterOutlet],
  providers: [ConversationStore],
  templateUrl: './conversation-shell.component.html',
  styleUrl: './conversation-shell.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConversationShellComponent {
  protected readonly store = inject(ConversationStore);
  private readonly api = inject(ApiService);
  private readonly route = inject(ActivatedRoute);

  protected readonly fsck = signal<FsckReport | null>(null);
  protected readonly fsckError = signal<string | null>(null);
  protected readonly title = computed(() => this.store.conversation()?.title || 'Conversation');
  protected readonly statusLabel = computed(() => STATUS_LABELS[this.store.status()]);
  protected readonly base = computed(() =>
    this.store.admin() ? ['/admin/c', this.store.id()] : ['/c', this.store.id()],
  );

  constructor() {
    // The browser tab names the conversation (and the tab of it that is open). Set after every
    // navigation too, since the router writes the route's own title when one ends.
    const router = inject(Router);
    const tabTitle = inject(Title);
    const navigated = toSignal(router.events.pipe(filter((e) => e instanceof NavigationEnd)));
    effect(() => {
      navigated();
      const view = router.url.split('?')[0]?.split('/').at(-1);
      const part = view === 'tree' ? ' · Tree' : view === 'reflog' ? ' · Reflog' : '';
      tabTitle.setTitle(`${this.title()}${part} · Sweatpants`);
    });
    const admin = this.route.snapshot.data['admin'] === true;
    this.route.paramMap.pipe(takeUntilDestroyed()).subscribe((params) => {
      const id = params.get('id');
      if (id) void this.store.open(id, admin);
      this.fsck.set(null);
    });
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

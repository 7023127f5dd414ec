import { Dialog } from '@angular/cdk/dialog';
import {
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  computed,
  type ElementRef,
  inject,
  Injector,
  signal,
  untracked,
  viewChild,
} from '@angular/core';
import { Router } from '@angular/router';
import type { ElicitContent, ElicitRequest, ElicitResponse } from '@sweatpants/domain';

import { ChatElicitComponent } from '../elicit/chat-elicit.component';
import { ElicitCardComponent } from '../elicit/elicit-card.component';
import { chatItems } from './chat-items';
import { ChatNodeComponent } from './chat-node.component';
import { CompactionPanelComponent } from './compaction-panel.component';
import { ConversationStore } from './conversation-store.service';
import { PathInspectorComponent, type PathInspectorData } from './path-inspector.component';
import { StatePanelComponent } from './state-panel.component';

/** When no chat elicit is pending, the composer still sends (`message:send`). */
const PLAIN_COMPOSER: ElicitRequest<'chat'> = { elicitId: '', type: 'chat', message: '', payload: {} };

/** The HEAD path as a chat, the pending question, the composer, and the session state beside it. */
@Component({
  selector: 'app-chat-page',
  imports: [
    ChatElicitComponent,
    ChatNodeComponent,
    CompactionPanelComponent,
    ElicitCardComponent,
    StatePanelComponent,
  ],
  templateUrl: './chat-page.component.html',
  styleUrl: './chat-page.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ChatPageComponent {
  protected readonly store = inject(ConversationStore);
  private readonly dialog = inject(Dialog);
  private readonly injector = inject(Injector);
  private readonly router = inject(Router);
  private readonly composer = viewChild(ChatElicitComponent);
  private readonly end = viewChild<ElementRef<HTMLElement>>('end');

  protected readonly sideOpen = signal(false);
  protected readonly items = computed(() => chatItems(this.store.path(), this.store.pending()));
  protected readonly pendingCard = computed(() => {
    const pending = this.store.pending();
    return pending && pending.type !== 'chat' ? pending : null;
  });
  protected readonly composerQuestion = computed(() => {
    const pending = this.store.pending();
    return pending?.type === 'chat' ? pending : PLAIN_COMPOSER;
  });
  protected readonly composerDisabled = computed(
    () => this.store.busy() || this.store.status() === 'running' || this.pendingCard() !== null,
  );

  constructor() {
    let seen = 0;
    // Keep the newest message in view as the path grows or text streams in.
    afterRenderEffect(() => {
      const count = this.items().length + (this.store.streaming()?.text.length ?? 0);
      untracked(() => {
        if (count !== seen) this.end()?.nativeElement.scrollIntoView?.({ block: 'end' });
        seen = count;
      });
    });
    // The chat elicit is a question too: focus the composer when a new one arrives.
    let lastChat: string | null = null;
    afterRenderEffect(() => {
      const pending = this.store.pending();
      untracked(() => {
        if (pending?.type === 'chat' && pending.elicitId !== lastChat) this.composer()?.focus();
        lastChat = pending?.type === 'chat' ? pending.elicitId : null;
      });
    });
  }

  protected siblings(nodeId: string): { ids: string[]; index: number } {
    return this.store.siblings(nodeId);
  }

  protected async answer(response: ElicitResponse): Promise<void> {
    await this.store.answer(response);
  }

  protected async send(response: ElicitResponse): Promise<void> {
    if (response.action !== 'accept' || !isChatContent(response.content)) return;
    const { text, photos = [] } = response.content;
    if (await this.store.send(text, photos)) this.composer()?.clear();
  }

  protected inspect(at: string, title = 'Inspect'): void {
    this.dialog.open<unknown, PathInspectorData>(PathInspectorComponent, {
      data: { at, title },
      injector: this.injector,
      ariaLabelledBy: 'inspector-title',
      panelClass: 'dialog-panel',
    });
  }

  protected async fork(nodeId: string): Promise<void> {
    const forked = await this.store.fork(nodeId);
    if (forked) await this.router.navigate(['/c', forked.id]);
  }
}

function isChatContent(content: unknown): content is ElicitContent<'chat'> {
  return (
    typeof content === 'object' &&
    content !== null &&
    typeof (content as { text?: unknown }).text === 'string'
  );
}

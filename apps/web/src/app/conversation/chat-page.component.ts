import { Dialog } from '@angular/cdk/dialog';
import {
  afterNextRender,
  afterRenderEffect,
  ChangeDetectionStrategy,
  Component,
  computed,
  DestroyRef,
  type ElementRef,
  inject,
  Injector,
  linkedSignal,
  signal,
  untracked,
  viewChild,
  viewChildren,
} from '@angular/core';
import { Router } from '@angular/router';
import type { ChatContentRequest, ElicitAnswerRequest, ElicitRequest, TreeNode } from '@sweatpants/domain';

import { BlobImageComponent } from '../core/blob-image.component';
import { matchesMedia } from '../core/media-query';
import { ChatElicitComponent } from '../elicit/chat-elicit.component';
import { ElicitCardComponent } from '../elicit/elicit-card.component';
import { payloadOf } from '../elicit/elicit-question';
import { chatItems } from './chat-items';
import { ChatNodeComponent } from './chat-node.component';
import { CompactionPanelComponent } from './compaction-panel.component';
import { AgentsService } from '../conversations/agents.service';
import { ConversationStore } from './conversation-store.service';
import { nodeText } from './node-text';
import { INSPECTOR_DIALOG, PathInspectorComponent, type PathInspectorData } from './path-inspector.component';
import { answerPlaceholder, askerTitle, questionAskers } from './question-askers';
import { StatePanelComponent } from './state-panel.component';

/** A phone's width (the cards' own styles tighten below it too). */
const NARROW = '(max-width: 30rem)';
/** How far above the end of the chat's pane still counts as being at the newest message. */
const FOLLOW_SLACK_PX = 120;
/** Above a card shown from its top: the end of the message before it, so the card reads as its answer. */
const CARD_GAP_PX = 24;
/** Scrolled this far below a tall card's top, the person reads on in it. */
const INTO_CARD_PX = 8;

/** When no chat elicit is pending, the composer still sends (`message:send`). */
const PLAIN_COMPOSER: ElicitRequest<'chat'> = { elicitId: '', type: 'chat', message: '', payload: {} };

/** Under a question card, the composer is the user's own answer to it. */
const OFF_SCRIPT_PLACEHOLDER = 'Or type your answer…';
/** Under a question asked in words, the composer is its answer box. */
const IN_WORDS_PLACEHOLDER = 'Type your answer…';
const OFF_SCRIPT_COMPOSER: ElicitRequest<'chat'> = {
  ...PLAIN_COMPOSER,
  payload: { placeholder: OFF_SCRIPT_PLACEHOLDER },
};

/**
 * The HEAD path as a chat, a card for each pending question (several agents may ask at once: each
 * card says who asks then, and each is answered on its own, in any order), the composer under them
 * (always there: while a card waits, typing answers in the user's own words), and the
 * session state beside it.
 */
@Component({
  selector: 'app-chat-page',
  imports: [
    BlobImageComponent,
    ChatElicitComponent,
    ChatNodeComponent,
    CompactionPanelComponent,
    ElicitCardComponent,
    StatePanelComponent,
  ],
  templateUrl: './chat-page.component.html',
  styleUrl: './chat-page.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '(window:resize)': 'onResize()' },
})
export class ChatPageComponent {
  protected readonly store = inject(ConversationStore);
  private readonly dialog = inject(Dialog);
  private readonly injector = inject(Injector);
  private readonly router = inject(Router);
  private readonly agents = inject(AgentsService);
  private readonly composer = viewChild(ChatElicitComponent);
  private readonly cards = viewChildren(ElicitCardComponent);
  /** The chat's own scrolling pane, and what it holds (which grows as the chat does). */
  private readonly pane = viewChild.required<ElementRef<HTMLElement>>('pane');
  private readonly content = viewChild.required<ElementRef<HTMLElement>>('content');

  protected readonly sideOpen = signal(false);
  /** Whether the user has scrolled up from the newest message (then it is not pulled into view). */
  private readonly readingBack = signal(false);
  /** The tall card last shown from its top, and its height then. */
  private shownFromTop: { card: string | null; height: number; moved: boolean } | null = null;
  /** Something new arrived while the user was reading back: offer to jump to it. */
  protected readonly newBelow = signal(false);
  protected readonly items = computed(() => chatItems(this.store.path(), this.store.questions.all()));
  private readonly shown = computed(() => new Set(this.items().map((item) => item.node.id)));
  /** The questions shown as cards, oldest first (a `chat` prompt is the composer instead). */
  protected readonly pendingCards = computed(() =>
    this.store.questions.all().filter((question) => question.type !== 'chat'),
  );
  /**
   * On a phone, when several questions wait, the newer cards open folded to their line: typed
   * words answer the oldest, and the others whole would push its question off the screen. Each
   * unfolds with a tap, and the next oldest opens whole once the oldest is answered.
   */
  protected readonly narrow = matchesMedia(NARROW);
  /**
   * Who asks, by elicit id, where the cards should say. A card that said it keeps saying it while
   * it waits (the other agent's question answered, it is still the same question, and the card
   * does not shift under the person reading it).
   */
  protected readonly askers = linkedSignal<ReadonlyMap<string, string>, ReadonlyMap<string, string>>({
    source: () =>
      questionAskers(this.store.questions.all(), this.store.conversation()?.agent, (agent) =>
        askerTitle(this.agents, agent),
      ),
    computation: (now, previous) => {
      const kept = new Map(now);
      for (const question of this.store.questions.all()) {
        const said = previous?.value.get(question.elicitId);
        if (said !== undefined && !kept.has(question.elicitId)) kept.set(question.elicitId, said);
      }
      return kept;
    },
  });
  protected readonly composerQuestion = computed((): ElicitRequest => {
    const pending = this.store.pending();
    if (pending?.type === 'chat') return pending;
    // A question asked in words has no box of its own on its card: this is where it is answered.
    if (pending?.type === 'free-text') {
      const placeholder = payloadOf('free-text', pending)?.placeholder ?? IN_WORDS_PLACEHOLDER;
      return { ...PLAIN_COMPOSER, payload: { placeholder } };
    }
    if (!pending) return PLAIN_COMPOSER;
    // Cards that say who asks: typed words answer the oldest, so the composer says whose it is.
    if (this.askers().has(pending.elicitId)) {
      const asker = pending.askedBy ?? this.store.conversation()?.agent;
      if (asker !== undefined) {
        const speaker = this.agents.speakers().get(asker);
        const placeholder = answerPlaceholder(speaker, askerTitle(this.agents, asker));
        return { ...PLAIN_COMPOSER, payload: { placeholder } };
      }
    }
    return OFF_SCRIPT_COMPOSER;
  });
  /** The camera is offered to an agent that looks at photos (its `needs`). */
  protected readonly takesPhotos = computed(() => {
    const agent = this.store.conversation()?.agent;
    return agent === undefined || this.agents.takesPhotos(agent);
  });
  /**
   * Open whenever no request of the person's is in flight, the agent at work or not: typing always
   * answers the question waiting, and while the agent works the message is queued for it.
   */
  protected readonly composerDisabled = computed(() => this.store.busy());
  /** How a queued message says who reads it: the agent's own name for itself ("the coach"). */
  protected readonly reader = computed(() => {
    const agent = this.store.conversation()?.agent;
    return (agent && this.agents.speakers().get(agent)) || 'the agent';
  });
  /**
   * When the first queued message is read: next, or, while a question card waits, once the agent is
   * done asking (queued messages are taken at its chat prompt, which comes after its questions).
   */
  protected readonly firstQueuedLabel = computed(() =>
    this.pendingCards().length > 0
      ? `Queued — ${this.reader()} reads this once it is done asking`
      : `Queued — ${this.reader()} reads this next`,
  );
  /** The queued message being withdrawn, whose button waits for the answer. */
  protected readonly withdrawing = signal<string | null>(null);

  constructor() {
    let seen = '';
    // Keep the newest message in view, just above the dock, as the path grows, text streams in or
    // a question card comes or goes (the dock changes height).
    afterRenderEffect(() => {
      const now = [
        this.items().length,
        this.store.streaming()?.text.length ?? 0,
        this.store.queue.items().length,
        this.pendingCards()
          .map((card) => card.elicitId)
          .join(','),
      ].join(':');
      untracked(() => {
        if (now !== seen) {
          // Still reading back only if the pane still runs on below: a rewind can shorten the chat
          // to where the person already is, and then there is nothing to jump to.
          if (this.readingBack() && this.runsOnBelow()) this.newBelow.set(true);
          else this.scrollToLatest();
        }
        seen = now;
      });
    });
    // The chat grows without anything new in it, after the scroll above has run: the sidebar
    // comes in when the window widens (its breakpoint is heard after the resize event, so the
    // text re-wraps taller), a photo's bytes arrive; or the pane shrinks: the composer takes a
    // second line, the Stop bar comes. Followed too, or the newest message ends up out of sight.
    const destroyRef = inject(DestroyRef);
    afterNextRender(() => {
      if (typeof ResizeObserver === 'undefined') return;
      const observer = new ResizeObserver(() => {
        if (!this.readingBack()) this.scrollToLatest();
      });
      observer.observe(this.pane().nativeElement);
      observer.observe(this.content().nativeElement);
      destroyRef.onDestroy(() => observer.disconnect());
    });
    // The chat elicit is a question too: focus the composer when a new one arrives, once it can be
    // typed in (the prompt may come while the last answer's ack is still on its way, the composer
    // disabled until it lands).
    let focusedChat: string | null = null;
    afterRenderEffect(() => {
      const pending = this.store.pending();
      const disabled = this.composerDisabled();
      untracked(() => {
        const chat = pending?.type === 'chat' ? pending.elicitId : null;
        if (chat !== null && chat !== focusedChat && !disabled) {
          this.composer()?.focus();
          focusedChat = chat;
        }
        if (chat === null) focusedChat = null;
      });
    });
  }

  /** Follows the newest message unless the user scrolled up to read. */
  protected onScroll(): void {
    const back = this.runsOnBelow();
    this.readingBack.set(back);
    if (!back) this.newBelow.set(false);
    // Scrolled on into a tall card to read its options: from now on it is followed to its end (a
    // composer growing a line must not pull its question back over the options being read).
    const tall = this.tallCard();
    if (tall && this.shownFromTop && this.pane().nativeElement.scrollTop > tall.top + INTO_CARD_PX)
      this.shownFromTop.moved = true;
  }

  /** Whether the chat goes on below where following it leaves the pane (by more than the slack). */
  private runsOnBelow(): boolean {
    const pane = this.pane().nativeElement;
    const latest = this.tallCardTop() ?? pane.scrollHeight - pane.clientHeight;
    return pane.scrollTop < latest - FOLLOW_SLACK_PX;
  }

  /**
   * Where the waiting card starts, when it is taller than the pane: a phone shows its question,
   * and the person scrolls on to its options, instead of the options with the question scrolled
   * off the top. Null for a card the pane shows whole, and with no card.
   */
  private tallCardTop(): number | null {
    const box = this.tallCard();
    return box ? box.top : null;
  }

  /** The waiting card's top in the pane's scroll and its height, when it is taller than the pane. */
  private tallCard(): { top: number; height: number } | null {
    const pane = this.pane().nativeElement;
    const card = pane.querySelector<HTMLElement>('app-elicit-card.pending');
    // (a pane not laid out yet shows nothing: no card is taller than it)
    if (!card || pane.clientHeight === 0) return null;
    const box = card.getBoundingClientRect();
    if (box.height + CARD_GAP_PX <= pane.clientHeight) return null;
    const top = box.top - pane.getBoundingClientRect().top + pane.scrollTop - CARD_GAP_PX;
    return { top, height: Math.round(box.height) };
  }

  /** A turned phone or a resized window keeps the newest message in view, unless reading back. */
  protected onResize(): void {
    if (!this.readingBack()) this.scrollToLatest();
  }

  /**
   * The pane to its end: the newest message, or the whole card with its last option and buttons;
   * a card taller than the pane from its top.
   */
  protected scrollToLatest(): void {
    const pane = this.pane().nativeElement;
    const tall = this.tallCard();
    const card = this.pendingCards()[0]?.elicitId ?? null;
    if (tall && this.shownFromTop?.card !== card)
      this.shownFromTop = { card, height: tall.height, moved: false };
    // Once shown from its top, a card that then changes height (an option's follow-up opened
    // below) is followed to its end, where the change is.
    const shown = tall ? this.shownFromTop : null;
    if (shown && tall && shown.height !== tall.height) shown.moved = true;
    pane.scrollTop = tall && shown && !shown.moved ? tall.top : pane.scrollHeight;
    if (!tall) this.shownFromTop = null;
    this.readingBack.set(false);
    this.newBelow.set(false);
    // A box being typed in inside the chat (a message's edit box opening, which grows the chat; a
    // card's field) stays in sight: following the newest message must not take it from the caret.
    const typing = pane.ownerDocument.activeElement;
    if (
      typing instanceof HTMLElement &&
      pane.contains(typing) &&
      typing.matches('textarea, input:not([type=checkbox]):not([type=radio])')
    )
      typing.scrollIntoView({ block: 'nearest' });
  }

  /** The agent that wrote a reply or asked a question, by its title, when not the conversation's own. */
  protected authorOf(node: TreeNode): string | null {
    const agent = /^agent:(.+)$/.exec(node.authorId)?.[1];
    if (agent === undefined || agent === this.store.conversation()?.agent) return null;
    return this.agents.label(agent);
  }

  protected siblings(nodeId: string): { ids: string[]; index: number } {
    return this.store.branches(nodeId, this.shown());
  }

  /**
   * Rewinds to a message the user confirmed, offering Undo named by that message's words. The chat
   * now ends where they went back to, and what comes there (a question asked again) is what they
   * went back for: it is followed into view, wherever the page was scrolled to reach the message.
   */
  protected async rewindTo(nodeId: string): Promise<void> {
    const node = this.store.path().find((n) => n.id === nodeId);
    const words = node ? nodeText(node).trim() : '';
    const label = words ? `'${words.length > 40 ? `${words.slice(0, 40)}…` : words}'` : 'an earlier point';
    if (!(await this.store.rewindWithUndo(nodeId, label))) return;
    afterNextRender(() => this.scrollToLatest(), { injector: this.injector });
  }

  /**
   * Takes the rewind back. The messages after the point the person went back to return, and the
   * newest of them is what they asked to see again: it is brought into view once it is drawn,
   * wherever the page was scrolled.
   */
  protected async undoRewind(): Promise<void> {
    if (!(await this.store.undoRewind())) return;
    afterNextRender(() => this.scrollToLatest(), { injector: this.injector });
  }

  /**
   * Answers one question. Its card goes, and focus (which was on it) moves to the newest card
   * still waiting, so a keyboard goes on from there rather than from the top of the page.
   */
  protected async answer(elicitId: string, response: ElicitAnswerRequest): Promise<void> {
    if (!(await this.store.answer(response, elicitId))) return;
    afterNextRender(() => this.cards().at(-1)?.focus(), { injector: this.injector });
  }

  protected async send(response: ElicitAnswerRequest): Promise<void> {
    if (response.action !== 'accept' || !isChatContent(response.content)) return;
    const { text, photos = [] } = response.content;
    if (await this.store.send(text, photos)) this.composer()?.clear();
  }

  /**
   * Withdraws a queued message. Nothing is put back on its own, but the words do not vanish
   * silently either: when the composer is empty they go back into it, to edit or send again; words
   * being typed there are left alone.
   */
  protected async withdraw(id: string): Promise<void> {
    this.withdrawing.set(id);
    try {
      const withdrawn = await this.store.withdraw(id);
      if (withdrawn) this.composer()?.restore(withdrawn.text);
    } finally {
      this.withdrawing.set(null);
    }
  }

  protected inspect(at: string, title = 'Inspect'): void {
    this.dialog.open<unknown, PathInspectorData>(PathInspectorComponent, {
      data: { at, title },
      injector: this.injector,
      ...INSPECTOR_DIALOG,
    });
  }

  protected async fork(nodeId: string): Promise<void> {
    const forked = await this.store.fork(nodeId);
    if (forked) await this.router.navigate(['/c', forked.id]);
  }
}

function isChatContent(content: unknown): content is ChatContentRequest {
  return (
    typeof content === 'object' &&
    content !== null &&
    typeof (content as { text?: unknown }).text === 'string'
  );
}

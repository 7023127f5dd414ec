import { ChangeDetectionStrategy, Component, computed, input, output, signal } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { toJson } from '../core/json';
import { type ElicitQuestion, payloadOf } from './elicit-question';
import { LeafElicitComponent } from './leaf-elicit.component';

/**
 * Pick one option. An option with a reveal opens its follow-up question in place, and the answer
 * carries both: `{choiceId, revealed}` (seed 000's reveals, which the original never rendered).
 */
/** A description longer than this is a sentence, not a hint ("Skip for now"). */
const EXPLAINED_CHARS = 40;

@Component({
  selector: 'app-choose-elicit',
  imports: [LeafElicitComponent],
  template: `
    @if (payload(); as p) {
      <div class="stack">
        <div
          class="choices"
          [class.choices--explained]="explained()"
          role="group"
          [attr.aria-label]="question().message"
        >
          @for (option of p.options; track option.id) {
            <button
              type="button"
              class="choice"
              [attr.aria-pressed]="chosen() === option.id"
              [attr.aria-expanded]="p.reveals?.[option.id] ? chosen() === option.id : null"
              (click)="choose(option.id)"
            >
              <span>{{ option.label }}</span>
              @if (option.description) {
                <small>{{ option.description }}</small>
              }
            </button>
          }
        </div>
        @if (reveal(); as r) {
          <section class="reveal stack" [attr.aria-label]="r.message">
            <p class="reveal__message">{{ r.message }}</p>
            <app-leaf-elicit [question]="r" (answered)="revealed($event)" />
          </section>
        }
      </div>
    } @else {
      <p class="error">This question could not be shown.</p>
    }
  `,
  styles: `
    .reveal {
      padding: var(--space-3) var(--space-4);
      border-left: 3px solid var(--color-accent);
      background: var(--color-bg);
      border-radius: var(--radius);
    }
    .reveal__message {
      margin: 0;
      font-weight: 500;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ChooseElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'choose'>>();

  protected readonly payload = computed(() => payloadOf('choose', this.question()));
  /** Some option is explained in a sentence, not a few words: the options are listed one a row on a phone. */
  protected readonly explained = computed(() =>
    (this.payload()?.options ?? []).some((o) => (o.description?.length ?? 0) > EXPLAINED_CHARS),
  );
  protected readonly chosen = signal<string | null>(null);
  protected readonly reveal = computed<ElicitQuestion | null>(() => {
    const id = this.chosen();
    return (id && this.payload()?.reveals?.[id]) || null;
  });

  protected choose(choiceId: string): void {
    this.chosen.set(choiceId);
    if (!this.payload()?.reveals?.[choiceId]) {
      this.answered.emit({ action: 'accept', content: { choiceId } });
    }
  }

  /** The nested answer: its content when accepted, the whole answer otherwise (declined, denied…). */
  protected revealed(answer: ElicitAnswerRequest): void {
    const choiceId = this.chosen();
    if (!choiceId) return;
    const revealed = answer.action === 'accept' ? toJson(answer.content) : toJson(answer);
    this.answered.emit({ action: 'accept', content: { choiceId, revealed } });
  }
}

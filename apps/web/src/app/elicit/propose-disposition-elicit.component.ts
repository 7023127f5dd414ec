import { ChangeDetectionStrategy, Component, computed, input, output, signal } from '@angular/core';
import type { Disposition, ElicitAnswerRequest } from '@sweatpants/domain';

import { dispositionLabel, SIMPLE_DISPOSITIONS } from './disposition-label';
import { type ElicitQuestion, payloadOf } from './elicit-question';

/**
 * Seed 000's one-tap disposition cards: the agent's proposals first, then a way to correct it
 * (another disposition, answered with `wasCorrection: true`, or a place typed in the message box,
 * which answers the card in the person's own words).
 */
@Component({
  selector: 'app-propose-disposition-elicit',
  template: `
    @if (payload(); as p) {
      <div class="stack">
        <p class="item">
          <strong>{{ p.item }}</strong>
          @if (p.reason) {
            <span class="muted small"> — {{ p.reason }}</span>
          }
        </p>
        <div class="choices" role="group" [attr.aria-label]="'Where does ' + p.item + ' go?'">
          @for (choice of p.choices; track choice.id) {
            <button type="button" class="choice" (click)="pick(choice.disposition, false)">
              <span>{{ choice.label }}</span>
              @if (choice.label !== label(choice.disposition)) {
                <small>{{ label(choice.disposition) }}</small>
              }
            </button>
          }
        </div>
        @if (!correcting()) {
          <button type="button" class="button button--quiet button--small" (click)="correcting.set(true)">
            Something different…
          </button>
        } @else {
          <div class="stack correction">
            <div class="row" role="group" aria-label="Choose another disposition">
              @for (d of others(); track d.kind) {
                <button type="button" class="button button--small" (click)="pick(d, true)">
                  {{ label(d) }}
                </button>
              }
            </div>
            <!-- One text box per question: a place in words goes in the message box, which answers
                 this card in the person's own words (the agent reads "the hall closet" as a place). -->
            <p class="muted small hint">Somewhere else? Type where it goes in the message box below.</p>
          </div>
        }
      </div>
    } @else {
      <p class="error">This question could not be shown.</p>
    }
  `,
  styles: `
    .item {
      margin: 0;
    }
    .hint {
      margin: 0;
    }
    .correction {
      padding-top: var(--space-2);
      border-top: 1px dashed var(--color-border);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ProposeDispositionElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'propose-disposition'>>();

  protected readonly correcting = signal(false);
  protected readonly payload = computed(() => payloadOf('propose-disposition', this.question()));
  /** The simple dispositions the proposal did not already offer. */
  protected readonly others = computed(() => {
    const offered = new Set(this.payload()?.choices.map((c) => c.disposition.kind) ?? []);
    return SIMPLE_DISPOSITIONS.filter((d) => !offered.has(d.kind));
  });
  protected readonly label = dispositionLabel;

  protected pick(disposition: Disposition, wasCorrection: boolean): void {
    this.answered.emit({ action: 'accept', content: { disposition, wasCorrection } });
  }
}

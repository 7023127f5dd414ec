import { ChangeDetectionStrategy, Component, computed, input, output, signal } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { type ElicitQuestion, payloadOf } from './elicit-question';

let nextId = 0;

/**
 * A free answer in words, where a question holds several (a group): Enter answers and Shift+Enter
 * starts a new line, as in the composer, so every box in the chat keeps one rule. A card asking
 * one free-text question shows no box: the composer answers it (ElicitCardComponent).
 */
@Component({
  selector: 'app-free-text-elicit',
  template: `
    <form class="stack" (submit)="$event.preventDefault(); submit()">
      <label class="field" [for]="inputId">
        <span class="visually-hidden">{{ question().message }}</span>
        <textarea
          class="input"
          #box
          [id]="inputId"
          [placeholder]="placeholder()"
          [value]="text()"
          (input)="text.set(box.value)"
          (keydown.enter)="enter($event)"
        ></textarea>
      </label>
      <div class="row">
        <button type="submit" class="button button--primary" [disabled]="!text().trim()">Answer</button>
      </div>
    </form>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class FreeTextElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'free-text'>>();

  protected readonly inputId = `free-text-${nextId++}`;
  protected readonly text = signal('');
  protected readonly placeholder = computed(
    () => payloadOf('free-text', this.question())?.placeholder ?? 'Type your answer',
  );

  /** Enter answers (Shift+Enter is a new line); not while an input method is composing a word. */
  protected enter(event: Event): void {
    const key = event as KeyboardEvent;
    if (key.shiftKey || key.isComposing) return;
    event.preventDefault();
    this.submit();
  }

  protected submit(): void {
    const text = this.text().trim();
    if (text) this.answered.emit({ action: 'accept', content: { text } });
  }
}

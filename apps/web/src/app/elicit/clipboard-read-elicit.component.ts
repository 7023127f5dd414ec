import { ChangeDetectionStrategy, Component, input, output, signal } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import type { ElicitQuestion } from './elicit-question';

/** Reads the clipboard when the user taps (browsers require the gesture); refusal answers `denied`. */
@Component({
  selector: 'app-clipboard-read-elicit',
  template: `
    <div class="stack">
      <div class="row">
        <button type="button" class="button button--primary" [disabled]="reading()" (click)="read()">
          Paste from clipboard
        </button>
      </div>
      @if (problem(); as p) {
        <p class="error small" role="alert">{{ p }}</p>
      }
    </div>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ClipboardReadElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'clipboard-read'>>();

  protected readonly reading = signal(false);
  protected readonly problem = signal<string | null>(null);

  protected async read(): Promise<void> {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard?.readText) {
      this.problem.set('This browser cannot read the clipboard.');
      return;
    }
    this.reading.set(true);
    try {
      const text = await clipboard.readText();
      this.answered.emit({ action: 'accept', content: { text } });
    } catch {
      // A refused permission and a blocked read look the same from here: both are the user's no.
      this.answered.emit({ action: 'denied' });
    } finally {
      this.reading.set(false);
    }
  }
}

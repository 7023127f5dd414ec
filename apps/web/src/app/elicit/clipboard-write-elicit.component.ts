import { ChangeDetectionStrategy, Component, computed, input, output, signal } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { type ElicitQuestion, payloadOf } from './elicit-question';

/** Shows the text the agent wants copied and copies it on a tap; refusal answers `denied`. */
@Component({
  selector: 'app-clipboard-write-elicit',
  template: `
    <div class="stack">
      <pre class="to-copy">{{ text() }}</pre>
      <div class="row">
        <button type="button" class="button button--primary" [disabled]="writing()" (click)="write()">
          Copy to clipboard
        </button>
      </div>
      @if (problem(); as p) {
        <p class="error small" role="alert">{{ p }}</p>
      }
    </div>
  `,
  styles: `
    .to-copy {
      margin: 0;
      padding: var(--space-3);
      border-radius: var(--radius);
      background: var(--color-hover);
      white-space: pre-wrap;
      word-break: break-word;
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ClipboardWriteElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'clipboard-write'>>();

  protected readonly writing = signal(false);
  protected readonly problem = signal<string | null>(null);
  protected readonly text = computed(() => payloadOf('clipboard-write', this.question())?.text ?? '');

  protected async write(): Promise<void> {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard?.writeText) {
      this.problem.set('This browser cannot write to the clipboard.');
      return;
    }
    this.writing.set(true);
    try {
      await clipboard.writeText(this.text());
      this.answered.emit({ action: 'accept', content: { success: true } });
    } catch {
      this.answered.emit({ action: 'denied' });
    } finally {
      this.writing.set(false);
    }
  }
}

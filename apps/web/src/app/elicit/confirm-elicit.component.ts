import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { type ElicitQuestion, payloadOf } from './elicit-question';

/** Yes or no; the default answer is the first button, so Enter on it is the expected answer. */
@Component({
  selector: 'app-confirm-elicit',
  template: `
    <div class="row" role="group" [attr.aria-label]="question().message">
      @for (option of options(); track option.value) {
        <button
          type="button"
          class="button"
          [class.button--primary]="option.value === defaultValue()"
          (click)="answered.emit({ action: 'accept', content: { value: option.value } })"
        >
          {{ option.label }}
        </button>
      }
    </div>
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ConfirmElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'confirm'>>();

  protected readonly defaultValue = computed(() => payloadOf('confirm', this.question())?.default ?? true);
  protected readonly options = computed(() => {
    const yes = { value: true, label: 'Yes' };
    const no = { value: false, label: 'No' };
    return this.defaultValue() ? [yes, no] : [no, yes];
  });
}

import {
  ChangeDetectionStrategy,
  Component,
  computed,
  input,
  linkedSignal,
  output,
  signal,
} from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import type { ElicitQuestion } from './elicit-question';
import { type FormDraft, formDraft, formFields, formValue, inputTypeOf, labelled } from './form-schema';

let nextId = 0;

/** A form drawn from the elicit's flat JSON schema: text, numbers, yes/no and pick-one fields. */
@Component({
  selector: 'app-form-elicit',
  template: `
    <form class="stack" novalidate (submit)="$event.preventDefault(); submit()">
      @for (field of fields(); track field.name) {
        @let id = prefix + field.name;
        @let problem = problems()[field.name];
        <!-- what the field is for, and what is wrong with it, are read with it -->
        @let describedBy =
          ((field.description ? id + '-hint ' : '') + (problem ? id + '-problem' : '')).trim() || null;
        @switch (field.kind) {
          @case ('boolean') {
            <label class="row check" [for]="id">
              <input
                #check
                type="checkbox"
                [id]="id"
                [checked]="draft()[field.name] ?? false"
                [attr.aria-describedby]="describedBy"
                (change)="set(field.name, check.checked)"
              />
              <span>{{ field.label }}</span>
            </label>
          }
          @case ('enum') {
            <label class="field" [for]="id">
              <span>{{ field.label }}{{ field.required ? ' *' : '' }}</span>
              <select
                #pick
                class="input"
                [id]="id"
                [attr.aria-invalid]="problem ? true : null"
                [attr.aria-required]="field.required"
                [attr.aria-describedby]="describedBy"
                (change)="set(field.name, pick.value)"
              >
                <option value="">Choose…</option>
                @for (option of field.options; track option.value) {
                  <option [value]="option.value" [selected]="draft()[field.name] === option.value">
                    {{ option.label }}
                  </option>
                }
              </select>
            </label>
          }
          @default {
            <label class="field" [for]="id">
              <span>{{ field.label }}{{ field.required ? ' *' : '' }}</span>
              <input
                #box
                class="input"
                [id]="id"
                [type]="field.kind === 'string' ? inputTypeOf(field.format) : 'number'"
                [attr.step]="field.kind === 'integer' ? 1 : null"
                [attr.aria-invalid]="problem ? true : null"
                [attr.aria-required]="field.required"
                [attr.aria-describedby]="describedBy"
                [value]="draft()[field.name] ?? ''"
                (input)="set(field.name, box.value)"
              />
            </label>
          }
        }
        @if (field.description) {
          <small class="muted" [id]="id + '-hint'">{{ field.description }}</small>
        }
        @if (problem) {
          <small class="problem" role="alert" [id]="id + '-problem'">{{
            labelled(field.label, problem)
          }}</small>
        }
      }
      <div class="row">
        <button type="submit" class="button button--primary">Submit</button>
      </div>
    </form>
  `,
  styles: `
    /* The box stays beside its question, which wraps next to it on a phone. */
    .check {
      flex-wrap: nowrap;
      align-items: baseline;
    }
    .check input {
      flex: none;
    }
    .problem {
      color: var(--color-danger-text);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class FormElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'form'>>();

  protected readonly prefix = `form-${nextId++}-`;
  protected readonly fields = computed(() => formFields(this.question().schema));
  /** the boxes as the person leaves them, starting from what the question already knows */
  protected readonly draft = linkedSignal<FormDraft>(() => formDraft(this.fields()));
  protected readonly problems = signal<Record<string, string>>({});
  protected readonly labelled = labelled;
  protected readonly inputTypeOf = inputTypeOf;

  protected set(name: string, value: string | boolean): void {
    this.draft.update((d) => ({ ...d, [name]: value }));
  }

  protected submit(): void {
    const result = formValue(this.fields(), this.draft());
    if (!result.ok) {
      this.problems.set(result.problems);
      return;
    }
    this.problems.set({});
    this.answered.emit({ action: 'accept', content: result.value });
  }
}

import { ChangeDetectionStrategy, Component, computed, input, output, signal } from '@angular/core';
import type { ElicitAnswerRequest, Json } from '@sweatpants/domain';

import { toJson } from '../core/json';
import { answerSummary } from './answer-summary';
import { ChooseElicitComponent } from './choose-elicit.component';
import { type ElicitQuestion, payloadOf } from './elicit-question';
import { LeafElicitComponent } from './leaf-elicit.component';

interface GroupAnswer {
  content: Json;
  summary: string;
}

/** Several questions at once, every one shown (the seed showed only the first); sent together. */
@Component({
  selector: 'app-group-elicit',
  imports: [ChooseElicitComponent, LeafElicitComponent],
  template: `
    @if (payload(); as p) {
      <ol class="questions">
        @for (q of p.questions; track q.id; let i = $index) {
          <li class="stack">
            <p class="q-message" [id]="'q-' + q.id">{{ i + 1 }}. {{ q.message }}</p>
            @if (q.type === 'choose') {
              <app-choose-elicit [question]="q" (answered)="record(q, $event)" />
            } @else {
              <app-leaf-elicit [question]="q" (answered)="record(q, $event)" />
            }
            @if (answers()[q.id]; as a) {
              <p class="answered small" [attr.aria-describedby]="'q-' + q.id">✓ {{ a.summary }}</p>
            }
          </li>
        }
      </ol>
      <div class="row">
        <button type="button" class="button button--primary" [disabled]="!complete()" (click)="submit()">
          Send answers
        </button>
        <span class="muted small">{{ answeredCount() }} of {{ p.questions.length }} answered</span>
      </div>
    } @else {
      <p class="error">This question could not be shown.</p>
    }
  `,
  styles: `
    .questions {
      display: flex;
      flex-direction: column;
      gap: var(--space-5);
      margin: 0 0 var(--space-4);
      padding: 0;
      list-style: none;
    }
    .q-message {
      margin: 0;
      font-weight: 500;
    }
    .answered {
      margin: 0;
      color: var(--color-accent);
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class GroupElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest<'group'>>();

  protected readonly payload = computed(() => payloadOf('group', this.question()));
  protected readonly answers = signal<Record<string, GroupAnswer>>({});
  protected readonly answeredCount = computed(() => Object.keys(this.answers()).length);
  protected readonly complete = computed(() => {
    const questions = this.payload()?.questions ?? [];
    return questions.length > 0 && questions.every((q) => this.answers()[q.id] !== undefined);
  });

  protected record(question: ElicitQuestion & { id: string }, answer: ElicitAnswerRequest): void {
    // An accepted answer is its content; a refusal inside a group is kept as the whole answer.
    const content = answer.action === 'accept' ? toJson(answer.content) : toJson(answer);
    const summary = answerSummary(question, answer.action, content);
    this.answers.update((all) => ({ ...all, [question.id]: { content, summary } }));
  }

  protected submit(): void {
    if (!this.complete()) return;
    const answers: Record<string, Json> = {};
    for (const [id, answer] of Object.entries(this.answers())) answers[id] = answer.content;
    this.answered.emit({ action: 'accept', content: { answers } });
  }
}

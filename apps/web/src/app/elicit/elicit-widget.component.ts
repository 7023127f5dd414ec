import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { ChooseElicitComponent } from './choose-elicit.component';
import type { ElicitQuestion } from './elicit-question';
import { GroupElicitComponent } from './group-elicit.component';
import { LeafElicitComponent } from './leaf-elicit.component';

/** The widget for any elicit type, by PROTOCOL.md's elicit table. */
@Component({
  selector: 'app-elicit-widget',
  imports: [ChooseElicitComponent, GroupElicitComponent, LeafElicitComponent],
  template: `
    @switch (question().type) {
      @case ('group') {
        <app-group-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('choose') {
        <app-choose-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @default {
        <app-leaf-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ElicitWidgetComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest>();
}

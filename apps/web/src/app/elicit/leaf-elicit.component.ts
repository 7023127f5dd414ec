import { ChangeDetectionStrategy, Component, input, output } from '@angular/core';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { ChatElicitComponent } from './chat-elicit.component';
import { ClipboardReadElicitComponent } from './clipboard-read-elicit.component';
import { ClipboardWriteElicitComponent } from './clipboard-write-elicit.component';
import { ConfirmElicitComponent } from './confirm-elicit.component';
import type { ElicitQuestion } from './elicit-question';
import { FormElicitComponent } from './form-elicit.component';
import { FreeTextElicitComponent } from './free-text-elicit.component';
import { LocationElicitComponent } from './location-elicit.component';
import { ProposeDispositionElicitComponent } from './propose-disposition-elicit.component';

/**
 * The widget for every elicit type that holds no other question. `group` and `choose` nest these,
 * so they live apart (ElicitWidgetComponent) and the component graph stays free of cycles.
 */
@Component({
  selector: 'app-leaf-elicit',
  imports: [
    ChatElicitComponent,
    ClipboardReadElicitComponent,
    ClipboardWriteElicitComponent,
    ConfirmElicitComponent,
    FormElicitComponent,
    FreeTextElicitComponent,
    LocationElicitComponent,
    ProposeDispositionElicitComponent,
  ],
  template: `
    @switch (question().type) {
      @case ('chat') {
        <app-chat-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('propose-disposition') {
        <app-propose-disposition-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('confirm') {
        <app-confirm-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('free-text') {
        <app-free-text-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('form') {
        <app-form-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('location') {
        <app-location-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('clipboard-read') {
        <app-clipboard-read-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @case ('clipboard-write') {
        <app-clipboard-write-elicit [question]="question()" (answered)="answered.emit($event)" />
      }
      @default {
        @if (question().schema) {
          <!-- A type of an app's own (createElicit) comes with its content's schema: a form. -->
          <app-form-elicit [question]="question()" (answered)="answered.emit($event)" />
        } @else {
          <p class="muted">
            This client cannot show a "{{ question().type }}" question; answer it in words below.
          </p>
        }
      }
    }
  `,
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class LeafElicitComponent {
  readonly question = input.required<ElicitQuestion>();
  readonly answered = output<ElicitAnswerRequest>();
}

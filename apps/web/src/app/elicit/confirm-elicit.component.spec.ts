import { TestBed } from '@angular/core/testing';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import { ConfirmElicitComponent } from './confirm-elicit.component';
import type { ElicitQuestion } from './elicit-question';

function render(question: ElicitQuestion) {
  const fixture = TestBed.createComponent(ConfirmElicitComponent);
  fixture.componentRef.setInput('question', question);
  const answers: ElicitAnswerRequest[] = [];
  fixture.componentInstance.answered.subscribe((a) => answers.push(a));
  fixture.detectChanges();
  const buttons = Array.from(
    fixture.nativeElement.querySelectorAll('button') as NodeListOf<HTMLButtonElement>,
  );
  return { fixture, answers, buttons };
}

describe('ConfirmElicitComponent', () => {
  it('puts the default answer first and answers {value}', () => {
    const { answers, buttons } = render({ type: 'confirm', message: 'Done?', payload: { default: false } });
    expect(buttons.map((b) => b.textContent?.trim())).toEqual(['No', 'Yes']);
    expect(buttons[0]!.classList).toContain('button--primary');
    buttons[1]!.click();
    expect(answers).toEqual([{ action: 'accept', content: { value: true } }]);
  });

  it('answers false with the No button', () => {
    const { answers, buttons } = render({
      type: 'confirm',
      message: 'Keep going?',
      payload: { default: true },
    });
    expect(buttons[0]!.textContent?.trim()).toBe('Yes');
    buttons[1]!.click();
    expect(answers).toEqual([{ action: 'accept', content: { value: false } }]);
  });
});

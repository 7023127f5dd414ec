import type { OutputEmitterRef, Type } from '@angular/core';
import { type ComponentFixture, TestBed } from '@angular/core/testing';
import type { ElicitAnswerRequest } from '@sweatpants/domain';

import type { ElicitQuestion } from './elicit-question';

export interface WidgetHarness<T> {
  fixture: ComponentFixture<T>;
  element: HTMLElement;
  /** every answer the widget emitted, in order */
  answers: ElicitAnswerRequest[];
  /** the button whose text contains `text` (throws when there is none) */
  button(text: string): HTMLButtonElement;
  buttons(): string[];
  /** types into the input or textarea matching `selector` and lets the widget see it */
  type(selector: string, value: string): void;
  /** runs change detection and waits for pending work (promises, renders) */
  settle(): Promise<void>;
}

/** Renders an elicit widget with `question` and records what it answers. */
export function renderWidget<T extends { answered: OutputEmitterRef<ElicitAnswerRequest> }>(
  component: Type<T>,
  question: ElicitQuestion,
  inputs: Record<string, unknown> = {},
): WidgetHarness<T> {
  const fixture = TestBed.createComponent(component);
  fixture.componentRef.setInput('question', question);
  for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
  const answers: ElicitAnswerRequest[] = [];
  fixture.componentInstance.answered.subscribe((answer) => answers.push(answer));
  fixture.detectChanges();
  const element = fixture.nativeElement as HTMLElement;
  const all = (): HTMLButtonElement[] => Array.from(element.querySelectorAll('button'));
  return {
    fixture,
    element,
    answers,
    button(text) {
      const found = all().find((b) => b.textContent?.includes(text));
      if (!found)
        throw new Error(
          `no button "${text}" among: ${all()
            .map((b) => b.textContent?.trim())
            .join(' | ')}`,
        );
      return found;
    },
    buttons: () => all().map((b) => b.textContent?.trim() ?? ''),
    type(selector, value) {
      const field = element.querySelector(selector) as HTMLInputElement | HTMLTextAreaElement | null;
      if (!field) throw new Error(`no field ${selector}`);
      field.value = value;
      field.dispatchEvent(new Event('input'));
      field.dispatchEvent(new Event('change'));
      fixture.detectChanges();
    },
    async settle() {
      fixture.detectChanges();
      await fixture.whenStable();
      fixture.detectChanges();
    },
  };
}

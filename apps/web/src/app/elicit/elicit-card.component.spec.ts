import { TestBed } from '@angular/core/testing';
import { By } from '@angular/platform-browser';
import type { ElicitRequest, ElicitAnswerRequest, Json } from '@sweatpants/domain';

import { ConfirmElicitComponent } from './confirm-elicit.component';
import { ElicitCardComponent } from './elicit-card.component';
import { ElicitProgress } from './elicit-progress';

function render(request: ElicitRequest) {
  const fixture = TestBed.createComponent(ElicitCardComponent);
  fixture.componentRef.setInput('request', request);
  const answers: ElicitAnswerRequest[] = [];
  fixture.componentInstance.answered.subscribe((a) => answers.push(a));
  fixture.autoDetectChanges();
  const element = fixture.nativeElement as HTMLElement;
  const button = (text: string) =>
    Array.from(element.querySelectorAll('button')).find((b) =>
      b.textContent?.includes(text),
    ) as HTMLButtonElement;
  return { fixture, answers, element, button };
}

const confirm: ElicitRequest = {
  elicitId: 'e1',
  type: 'confirm',
  message: 'Done for today?',
  payload: { default: true },
};

describe('ElicitCardComponent', () => {
  it('says who asks above the question, read with it, when the page gives an asker', async () => {
    const { element, fixture } = render(confirm);
    expect(element.querySelector('.elicit__asker')).toBeNull();
    fixture.componentRef.setInput('asker', 'The donation helper asks…');
    await fixture.whenStable();
    const ids = element.querySelector('section')!.getAttribute('aria-labelledby')!.split(' ');
    expect(ids.map((id) => element.querySelector(`#${id}`)?.textContent?.trim())).toEqual([
      'The donation helper asks…',
      'Done for today?',
    ]);
  });

  it("sends its widget's progress on as progress on its own question", async () => {
    const reported: { payload: Json; elicitId: string | undefined }[] = [];
    TestBed.configureTestingModule({
      providers: [
        {
          provide: ElicitProgress,
          useValue: { report: (payload: Json, elicitId?: string) => reported.push({ payload, elicitId }) },
        },
      ],
    });
    const { fixture } = render(confirm);
    await fixture.whenStable();
    const widget = fixture.debugElement.query(By.directive(ConfirmElicitComponent));
    widget.injector.get(ElicitProgress).report({ status: 'acquiring' });
    expect(reported).toEqual([{ payload: { status: 'acquiring' }, elicitId: 'e1' }]);
  });

  it('titles the card with the message and renders the widget for the type', async () => {
    const { element, fixture } = render(confirm);
    await fixture.whenStable();
    const card = element.querySelector('section')!;
    const heading = element.querySelector(`#${card.getAttribute('aria-labelledby')}`);
    expect(heading?.textContent?.trim()).toBe('Done for today?');
    expect(element.querySelector('app-confirm-elicit')).not.toBeNull();
  });

  it('offers a web address in the message as a link that opens apart (a page an MCP server asks for)', async () => {
    const { element, fixture } = render({
      ...confirm,
      message: 'Please open the link to complete this action.\n\nOpen https://example.com/sign-in',
    });
    await fixture.whenStable();
    const link = element.querySelector('h2 a') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('https://example.com/sign-in');
    expect(link.textContent).toBe('https://example.com/sign-in');
    expect([link.target, link.rel]).toEqual(['_blank', 'noopener noreferrer']);
    expect(element.querySelector('h2')?.textContent).toContain(
      'Please open the link to complete this action.',
    );
  });

  it('moves focus to a new elicit', async () => {
    const { element, fixture } = render(confirm);
    await fixture.whenStable();
    expect(document.activeElement).toBe(element.querySelector('section'));
    (document.activeElement as HTMLElement).blur();
    fixture.componentRef.setInput('request', { ...confirm, elicitId: 'e2', message: 'And now?' });
    await fixture.whenStable();
    expect(document.activeElement).toBe(element.querySelector('section'));
  });

  it('passes the widget answer through', async () => {
    const { answers, button, fixture } = render(confirm);
    await fixture.whenStable();
    button('No').click();
    expect(answers).toEqual([{ action: 'accept', content: { value: false } }]);
  });

  it('declines and cancels', async () => {
    const { answers, button, fixture } = render(confirm);
    await fixture.whenStable();
    button('Skip this').click();
    button('Cancel').click();
    expect(answers).toEqual([{ action: 'decline' }, { action: 'cancel' }]);
  });

  it('has no text field of its own: the composer under it is where the user types', async () => {
    const { element, fixture } = render(confirm);
    await fixture.whenStable();
    expect(element.querySelector('input, textarea')).toBeNull();
    expect(Array.from(element.querySelectorAll('button')).map((b) => b.textContent?.trim())).not.toContain(
      'Something else…',
    );
  });

  it('shows a question asked in words without a box of its own: the composer answers it', async () => {
    const { element, fixture } = render({
      elicitId: 'e3',
      type: 'free-text',
      message: 'What is this room for?',
      payload: {},
    });
    await fixture.whenStable();
    expect(element.querySelector('input, textarea')).toBeNull();
    expect(element.textContent).toContain('Type your answer in the message box below.');
  });

  it('says so when the question is asked again after a tangent', async () => {
    const { element, fixture } = render(confirm);
    await fixture.whenStable();
    expect(element.textContent).not.toContain('Back to this question');
    fixture.componentRef.setInput('request', { ...confirm, elicitId: 'e2', resumes: 'e1' });
    await fixture.whenStable();
    expect(element.querySelector('.elicit__again')?.textContent).toContain('Back to this question');
    expect(element.querySelector('h2')?.textContent?.trim()).toBe('Done for today?');
  });

  it('folds to its question and back, keeping the widget, and opens a new question unfolded', async () => {
    const { element, fixture } = render(confirm);
    await fixture.whenStable();
    const fold = element.querySelector<HTMLButtonElement>('.elicit__fold')!;
    const body = () => element.querySelector<HTMLElement>(`#${fold.getAttribute('aria-controls')}`)!;
    expect(fold.getAttribute('aria-expanded')).toBe('true');
    expect(fold.getAttribute('aria-label')).toBe('Fold the question');

    fold.click();
    await fixture.whenStable();
    expect(fold.getAttribute('aria-expanded')).toBe('false');
    expect(fold.getAttribute('aria-label')).toBe('Show the question');
    expect(body().hidden).toBe(true);
    expect(body().querySelector('app-confirm-elicit')).not.toBeNull();
    expect(element.querySelector('h2')?.textContent?.trim()).toBe('Done for today?');

    fixture.componentRef.setInput('request', { ...confirm, elicitId: 'e2', message: 'And now?' });
    await fixture.whenStable();
    expect(body().hidden).toBe(false);
    expect(fold.getAttribute('aria-expanded')).toBe('true');
  });
});

import { renderWidget } from './render-widget';
import { GroupElicitComponent } from './group-elicit.component';

const question = {
  type: 'group',
  message: 'A few things first',
  payload: {
    questions: [
      { id: 'room', type: 'free-text', message: 'Which room?', payload: {} },
      { id: 'ready', type: 'confirm', message: 'Ready to start?', payload: { default: true } },
      {
        id: 'pace',
        type: 'choose',
        message: 'What pace?',
        payload: {
          options: [
            { id: 'slow', label: 'Slow' },
            { id: 'fast', label: 'Fast' },
          ],
        },
      },
    ],
  },
};

describe('GroupElicitComponent', () => {
  it('shows every question, not only the first', () => {
    const w = renderWidget(GroupElicitComponent, question);
    const text = w.element.textContent ?? '';
    expect(text).toContain('Which room?');
    expect(text).toContain('Ready to start?');
    expect(text).toContain('What pace?');
  });

  it('sends {answers} keyed by question id once all are answered', async () => {
    const w = renderWidget(GroupElicitComponent, question);
    expect(w.button('Send answers').disabled).toBe(true);
    w.type('textarea', 'the bedroom');
    w.button('Answer').click();
    w.button('Yes').click();
    await w.settle();
    expect(w.button('Send answers').disabled).toBe(true);
    expect(w.element.textContent).toContain('2 of 3 answered');
    w.button('Fast').click();
    await w.settle();
    expect(w.element.textContent).toContain('✓ the bedroom');
    w.button('Send answers').click();
    expect(w.answers).toEqual([
      {
        action: 'accept',
        content: {
          answers: { room: { text: 'the bedroom' }, ready: { value: true }, pace: { choiceId: 'fast' } },
        },
      },
    ]);
  });

  it('lets an answer be changed before sending', async () => {
    const w = renderWidget(GroupElicitComponent, question);
    w.type('textarea', 'x');
    w.button('Answer').click();
    w.button('Yes').click();
    w.button('No').click();
    w.button('Slow').click();
    await w.settle();
    w.button('Send answers').click();
    const sent = w.answers[0];
    expect(sent?.action === 'accept' && sent.content).toMatchObject({ answers: { ready: { value: false } } });
  });
});

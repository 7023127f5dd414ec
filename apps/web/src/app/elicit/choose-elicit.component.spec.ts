import { renderWidget } from './render-widget';
import { ChooseElicitComponent } from './choose-elicit.component';

const question = {
  type: 'choose',
  message: 'How should these newsletters be handled?',
  payload: {
    options: [
      { id: 'a', label: 'A) Auto-archive', description: 'Tier 1' },
      { id: 'b', label: 'B) Note, do not surface' },
      { id: 'c', label: 'C) Review' },
    ],
    reveals: {
      c: { type: 'free-text', message: 'What should I look for?', payload: { placeholder: 'e.g. invoices' } },
      b: { type: 'confirm', message: 'Apply to all 4 items?', payload: { default: true } },
    },
  },
};

describe('ChooseElicitComponent', () => {
  it('renders every option with its description', () => {
    const w = renderWidget(ChooseElicitComponent, question);
    expect(w.element.querySelectorAll('.choice')).toHaveLength(3);
    expect(w.element.textContent).toContain('Tier 1');
  });

  it('lists options explained in a sentence one a row (on a phone), and short hints side by side', () => {
    const short = renderWidget(ChooseElicitComponent, question);
    expect(short.element.querySelector('.choices')?.classList).not.toContain('choices--explained');
    const explained = renderWidget(ChooseElicitComponent, {
      ...question,
      payload: {
        options: [
          {
            id: 'A',
            label: 'A. Newsletter',
            description: 'If it only sends bulk mail you never act on, I archive it.',
          },
          { id: 'B', label: 'B. Promo' },
        ],
      },
    });
    expect(explained.element.querySelector('.choices')?.classList).toContain('choices--explained');
  });

  it('answers {choiceId} at once for an option without a reveal', () => {
    const w = renderWidget(ChooseElicitComponent, question);
    w.button('Auto-archive').click();
    expect(w.answers).toEqual([{ action: 'accept', content: { choiceId: 'a' } }]);
  });

  it('shows the nested question of an option with a reveal and answers {choiceId, revealed}', async () => {
    const w = renderWidget(ChooseElicitComponent, question);
    w.button('Review').click();
    await w.settle();
    expect(w.answers).toEqual([]);
    expect(w.element.textContent).toContain('What should I look for?');
    expect(w.button('Review').getAttribute('aria-expanded')).toBe('true');
    w.type('textarea', 'invoices from vendors');
    w.button('Answer').click();
    expect(w.answers).toEqual([
      { action: 'accept', content: { choiceId: 'c', revealed: { text: 'invoices from vendors' } } },
    ]);
  });

  it('switches the reveal when another option is picked (a batch confirm)', async () => {
    const w = renderWidget(ChooseElicitComponent, question);
    w.button('Review').click();
    await w.settle();
    w.button('Note, do not surface').click();
    await w.settle();
    expect(w.element.textContent).not.toContain('What should I look for?');
    expect(w.element.textContent).toContain('Apply to all 4 items?');
    w.button('Yes').click();
    expect(w.answers).toEqual([{ action: 'accept', content: { choiceId: 'b', revealed: { value: true } } }]);
  });
});

import { renderWidget } from './render-widget';
import { FreeTextElicitComponent } from './free-text-elicit.component';

describe('FreeTextElicitComponent', () => {
  const question = {
    type: 'free-text',
    message: 'What is this room for?',
    payload: { placeholder: 'Sleeping…' },
  };

  it('uses the placeholder and labels the box with the question', () => {
    const w = renderWidget(FreeTextElicitComponent, question);
    const box = w.element.querySelector('textarea')!;
    expect(box.placeholder).toBe('Sleeping…');
    expect(w.element.querySelector(`label[for="${box.id}"]`)?.textContent).toContain(
      'What is this room for?',
    );
  });

  it('answers {text} trimmed, and not while empty', () => {
    const w = renderWidget(FreeTextElicitComponent, question);
    expect(w.button('Answer').disabled).toBe(true);
    w.type('textarea', '  a home office ');
    w.button('Answer').click();
    expect(w.answers).toEqual([{ action: 'accept', content: { text: 'a home office' } }]);
  });

  it('answers on Enter, as the composer does; Shift+Enter is a new line', () => {
    const w = renderWidget(FreeTextElicitComponent, question);
    w.type('textarea', 'reading');
    const box = w.element.querySelector('textarea')!;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true }));
    expect(w.answers).toEqual([]);
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(w.answers).toEqual([{ action: 'accept', content: { text: 'reading' } }]);
  });
});

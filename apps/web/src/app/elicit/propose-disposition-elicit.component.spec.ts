import { renderWidget } from './render-widget';
import { ProposeDispositionElicitComponent } from './propose-disposition-elicit.component';

const question = {
  type: 'propose-disposition',
  message: 'Where does the mug go?',
  payload: {
    item: 'mug',
    reason: 'it is chipped',
    choices: [
      { id: 'a', label: 'Kitchen shelf', disposition: { kind: 'place', location: 'kitchen shelf' } },
      { id: 'b', label: 'Trash it', disposition: { kind: 'trash' } },
    ],
  },
};

describe('ProposeDispositionElicitComponent', () => {
  it('shows the item, the reason and one card per proposal', () => {
    const w = renderWidget(ProposeDispositionElicitComponent, question);
    expect(w.element.textContent).toContain('mug');
    expect(w.element.textContent).toContain('it is chipped');
    expect(w.element.querySelectorAll('.choice')).toHaveLength(2);
  });

  it('answers a one-tap card with its disposition, not a correction', () => {
    const w = renderWidget(ProposeDispositionElicitComponent, question);
    w.button('Kitchen shelf').click();
    expect(w.answers).toEqual([
      {
        action: 'accept',
        content: { disposition: { kind: 'place', location: 'kitchen shelf' }, wasCorrection: false },
      },
    ]);
  });

  it('corrects with another disposition the proposal did not offer', async () => {
    const w = renderWidget(ProposeDispositionElicitComponent, question);
    w.button('Something different').click();
    await w.settle();
    // trash was already offered, so the correction row leaves it out
    expect(w.buttons()).not.toContain('Trash');
    w.button('Donate').click();
    expect(w.answers).toEqual([
      { action: 'accept', content: { disposition: { kind: 'donate' }, wasCorrection: true } },
    ]);
  });

  it('has no text box of its own: a place in words goes in the message box', async () => {
    const w = renderWidget(ProposeDispositionElicitComponent, question);
    w.button('Something different').click();
    await w.settle();
    expect(w.element.querySelector('input, textarea')).toBeNull();
    expect(w.element.textContent).toContain('Type where it goes in the message box below');
  });

  it('says so when the payload does not fit the type', () => {
    const w = renderWidget(ProposeDispositionElicitComponent, { ...question, payload: { item: 'mug' } });
    expect(w.element.textContent).toContain('could not be shown');
  });
});

import { renderWidget } from './render-widget';
import { LeafElicitComponent } from './leaf-elicit.component';

/**
 * A question of a type an app declared itself (createElicit) has no widget of its own here: its
 * content's schema comes with it, and it is drawn as a form.
 */
describe('LeafElicitComponent', () => {
  it("draws a created type's schema as a form and answers with the object", async () => {
    const w = renderWidget(LeafElicitComponent, {
      type: 'donation-pickup',
      message: 'When can they collect?',
      payload: {},
      schema: {
        type: 'object',
        properties: { bags: { type: 'integer', title: 'Bags', minimum: 1 } },
        required: ['bags'],
      },
    });
    const input = w.element.querySelector('input') as HTMLInputElement;
    expect(w.element.querySelector('label')?.textContent?.trim()).toBe('Bags *');
    input.value = '3';
    input.dispatchEvent(new Event('input'));
    await w.settle();
    w.button('Submit').click();
    await w.settle();
    expect(w.answers).toEqual([{ action: 'accept', content: { bags: 3 } }]);
  });

  it('says it cannot show a type it does not know that brings no schema', () => {
    const w = renderWidget(LeafElicitComponent, { type: 'hologram', message: 'Look', payload: {} });
    expect(w.element.textContent).toContain('This client cannot show a "hologram" question');
  });
});

import { MAX_MESSAGE_LENGTH } from '@sweatpants/domain';

import { renderWidget } from './render-widget';
import { ChatElicitComponent } from './chat-elicit.component';

const question = { type: 'chat', message: '', payload: { placeholder: 'What is in front of you?' } };

async function choosePhoto(element: HTMLElement, file: File): Promise<void> {
  const input = element.querySelector('input[type=file]') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  input.dispatchEvent(new Event('change'));
  // FileReader answers on a later task
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('ChatElicitComponent', () => {
  it('offers the camera for photos and uses the placeholder', () => {
    const w = renderWidget(ChatElicitComponent, question);
    const file = w.element.querySelector('input[type=file]') as HTMLInputElement;
    expect(file.accept).toBe('image/*');
    expect(file.getAttribute('capture')).toBe('environment');
    expect(w.element.querySelector('textarea')!.placeholder).toBe('What is in front of you?');
  });

  it('offers no camera to an agent that does not look at photos, and still takes words', () => {
    const w = renderWidget(ChatElicitComponent, question, { takesPhotos: false });
    expect(w.element.querySelector('input[type=file]')).toBeNull();
    expect(w.element.textContent).not.toContain('Add a photo');
    expect(w.element.querySelector('textarea')).not.toBeNull();
  });

  it('answers {text} and keeps the text until cleared', () => {
    const w = renderWidget(ChatElicitComponent, question);
    expect(w.button('Send').disabled).toBe(true);
    w.type('textarea', 'my desk is a mess');
    w.button('Send').click();
    expect(w.answers).toEqual([{ action: 'accept', content: { text: 'my desk is a mess' } }]);
    w.fixture.componentInstance.clear();
    w.fixture.detectChanges();
    expect(w.element.querySelector('textarea')!.value).toBe('');
  });

  it('sends on Enter; Shift+Enter is a new line', () => {
    const w = renderWidget(ChatElicitComponent, question);
    w.type('textarea', 'writing letters');
    const box = w.element.querySelector('textarea')!;
    const shift = new KeyboardEvent('keydown', {
      key: 'Enter',
      shiftKey: true,
      bubbles: true,
      cancelable: true,
    });
    box.dispatchEvent(shift);
    expect(shift.defaultPrevented).toBe(false);
    expect(w.answers).toEqual([]);
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    box.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    expect(w.answers).toEqual([{ action: 'accept', content: { text: 'writing letters' } }]);
  });

  /** The first bytes of a PNG, then a little more: what the file is, whatever its name says. */
  const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const PNG_BASE64 = 'iVBORw0KGgoAAAAN';

  it('sends a photo as base64 {mediaType, data} with a preview and a way to remove it', async () => {
    const w = renderWidget(ChatElicitComponent, question);
    await choosePhoto(w.element, new File([PNG_BYTES], 'desk.png', { type: 'image/png' }));
    await w.settle();
    expect(w.element.querySelector('img')?.getAttribute('alt')).toContain('desk.png');
    w.type('textarea', 'here it is');
    w.button('Send').click();
    expect(w.answers).toEqual([
      {
        action: 'accept',
        content: { text: 'here it is', photos: [{ mediaType: 'image/png', data: PNG_BASE64 }] },
      },
    ]);
  });

  it('sends a photo alone, without words', async () => {
    const w = renderWidget(ChatElicitComponent, question);
    expect(w.button('Send').disabled).toBe(true);
    await choosePhoto(w.element, new File([PNG_BYTES], 'desk.png', { type: 'image/png' }));
    await w.settle();
    expect(w.button('Send').disabled).toBe(false);
    w.button('Send').click();
    expect(w.answers).toEqual([
      { action: 'accept', content: { text: '', photos: [{ mediaType: 'image/png', data: PNG_BASE64 }] } },
    ]);
  });

  it('refuses a file that is not an image it can send, by its bytes, not its name', async () => {
    const w = renderWidget(ChatElicitComponent, question);
    await choosePhoto(w.element, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    await w.settle();
    expect(w.element.querySelector('[role=alert]')?.textContent).toContain('not a JPEG, PNG, WebP or GIF');
    await choosePhoto(w.element, new File(['just some text'], 'renamed.png', { type: 'image/png' }));
    await w.settle();
    expect(w.element.querySelector('[role=alert]')?.textContent).toContain('renamed.png is not a JPEG');
    expect(w.element.querySelector('img')).toBeNull();
  });

  it('shows the length limit near it and refuses a message past it, as the api does', async () => {
    const w = renderWidget(ChatElicitComponent, question);
    w.type('textarea', 'x'.repeat(MAX_MESSAGE_LENGTH - 10));
    await w.settle();
    expect(w.element.textContent).toContain(`${MAX_MESSAGE_LENGTH - 10} / ${MAX_MESSAGE_LENGTH} characters`);
    expect(w.button('Send').disabled).toBe(false);
    w.type('textarea', 'x'.repeat(MAX_MESSAGE_LENGTH + 1));
    await w.settle();
    expect(w.element.textContent).toContain('shorten it to send');
    expect(w.button('Send').disabled).toBe(true);
  });

  it('sends nothing while disabled', () => {
    const w = renderWidget(ChatElicitComponent, question, { disabled: true });
    expect(w.button('Send').disabled).toBe(true);
    expect(w.element.querySelector('textarea')!.disabled).toBe(true);
  });
});

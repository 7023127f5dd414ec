import { renderWidget } from './render-widget';
import { ClipboardReadElicitComponent } from './clipboard-read-elicit.component';
import { ClipboardWriteElicitComponent } from './clipboard-write-elicit.component';

function fakeClipboard(clipboard: Partial<Clipboard>): void {
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ClipboardReadElicitComponent', () => {
  const question = { type: 'clipboard-read', message: 'Paste the tracking number', payload: {} };

  it('reads the clipboard on a tap and answers {text}', async () => {
    const readText = jest.fn().mockResolvedValue('1Z999AA10123456784');
    fakeClipboard({ readText });
    const w = renderWidget(ClipboardReadElicitComponent, question);
    expect(readText).not.toHaveBeenCalled();
    w.button('Paste from clipboard').click();
    await flush();
    expect(w.answers).toEqual([{ action: 'accept', content: { text: '1Z999AA10123456784' } }]);
  });

  it('answers denied when the browser refuses', async () => {
    fakeClipboard({ readText: jest.fn().mockRejectedValue(new DOMException('denied', 'NotAllowedError')) });
    const w = renderWidget(ClipboardReadElicitComponent, question);
    w.button('Paste from clipboard').click();
    await flush();
    expect(w.answers).toEqual([{ action: 'denied' }]);
  });
});

describe('ClipboardWriteElicitComponent', () => {
  const question = {
    type: 'clipboard-write',
    message: 'Copy your list',
    payload: { text: 'mug, lamp, books' },
  };

  it('shows the text and copies exactly it, answering {success: true}', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    fakeClipboard({ writeText });
    const w = renderWidget(ClipboardWriteElicitComponent, question);
    expect(w.element.querySelector('pre')?.textContent).toBe('mug, lamp, books');
    w.button('Copy to clipboard').click();
    await flush();
    expect(writeText).toHaveBeenCalledWith('mug, lamp, books');
    expect(w.answers).toEqual([{ action: 'accept', content: { success: true } }]);
  });

  it('answers denied when the write is refused', async () => {
    fakeClipboard({ writeText: jest.fn().mockRejectedValue(new DOMException('denied', 'NotAllowedError')) });
    const w = renderWidget(ClipboardWriteElicitComponent, question);
    w.button('Copy to clipboard').click();
    await flush();
    expect(w.answers).toEqual([{ action: 'denied' }]);
  });
});

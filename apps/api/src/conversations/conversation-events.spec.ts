import type { TreeNode } from '@sweatpants/domain';
import { AppEvents } from '../events/app-events';
import { ConversationEvents, TOKEN_FRAME_MS } from './conversation-events';

describe('streamed text as a tab receives it', () => {
  let sent: { event: string; text?: string }[];
  let events: ConversationEvents;
  beforeEach(() => {
    jest.useFakeTimers();
    const app = new AppEvents();
    sent = [];
    app.on('conversation.event', ({ event, payload }) => {
      sent.push({ event, ...('text' in payload ? { text: payload.text } : {}) });
    });
    events = new ConversationEvents(app);
  });
  afterEach(() => jest.useRealTimers());

  it('sends the first words at once, then what follows within a frame as one event', () => {
    events.token('c1', 'n1', 'A mug:');
    expect(sent).toEqual([{ event: 'token', text: 'A mug:' }]);

    events.token('c1', 'n1', ' that usually');
    events.token('c1', 'n1', ' lives in the kitchen.');
    expect(sent).toHaveLength(1);
    jest.advanceTimersByTime(TOKEN_FRAME_MS);
    expect(sent).toEqual([
      { event: 'token', text: 'A mug:' },
      { event: 'token', text: ' that usually lives in the kitchen.' },
    ]);
  });

  it('sends nothing more at the frame when nothing followed the first words', () => {
    events.token('c1', 'n1', 'Done.');
    jest.advanceTimersByTime(TOKEN_FRAME_MS * 3);
    expect(sent).toEqual([{ event: 'token', text: 'Done.' }]);
  });

  it('sends the gathered words before any other event of the conversation', () => {
    events.token('c1', 'n1', 'A mug:');
    events.token('c1', 'n1', ' kitchen.');
    const node = { id: 'n1', kind: 'assistant', payload: { text: 'A mug: kitchen.' } } as unknown as TreeNode;
    events.emit('node', { conversationId: 'c1', node });
    expect(sent.map((s) => s.text ?? s.event)).toEqual(['A mug:', ' kitchen.', 'node']);
  });
});

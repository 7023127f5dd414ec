import type { ModelMessage } from '@sweatpants/agent-runtime';
import { createOfflineContext } from '@sweatpants/agent-runtime/offline';
import { CheckedSchema, FoundSchema, lastTurnOf, read, resultsOf } from './turn-reading';

const words = (text: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const calls = (id: string, name: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input: {} }],
});
const answers = (id: string, value: unknown): ModelMessage => ({
  role: 'user',
  content: [{ type: 'tool_result', toolUseId: id, content: JSON.stringify(value) }],
});
const reply = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

const COAT_FOUND = {
  item: 'winter coat',
  kind: 'clothes',
  located: true,
  near: { lat: 51.5, lng: -0.1 },
  collection: false,
  places: [],
};

describe('reading back what the helper’s tools answered', () => {
  const ctx = createOfflineContext({
    system: '',
    tools: [],
    messages: [
      words('a winter coat'),
      calls('a', 'find_drop_off'),
      answers('a', COAT_FOUND),
      reply('Take it to …'),
      words('and some old books'),
      calls('b', 'check_item'),
      answers('b', { item: 'old books', kind: 'books', donatable: true, condition: 'good' }),
    ],
  });

  it('splits the results at the person’s last words: this turn’s, and the earlier ones', () => {
    const { thisTurn, earlier } = resultsOf(ctx);
    expect(read(thisTurn, 'check_item', CheckedSchema)).toEqual([
      { item: 'old books', kind: 'books', donatable: true, condition: 'good' },
    ]);
    expect(read(thisTurn, 'find_drop_off', FoundSchema)).toEqual([]);
    expect(read(earlier, 'find_drop_off', FoundSchema)).toEqual([COAT_FOUND]);
  });

  it('finds the last turn that searched, with everything else that turn did', () => {
    const { earlier } = resultsOf(ctx);
    expect(lastTurnOf(earlier, 'find_drop_off').map((r) => r.name)).toEqual(['find_drop_off']);
    expect(lastTurnOf(earlier, 'copy_directions')).toEqual([]);
  });

  it('leaves out a result it cannot read rather than guess at it', () => {
    const broken = createOfflineContext({
      system: '',
      tools: [],
      messages: [words('a coat'), calls('c', 'check_item'), answers('c', { item: 'coat' })],
    });
    expect(read(resultsOf(broken).thisTurn, 'check_item', CheckedSchema)).toEqual([]);
  });
});

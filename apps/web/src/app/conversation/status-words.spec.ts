import type { ElicitRequest } from '@sweatpants/domain';

import { statusWords } from './status-words';

const card: ElicitRequest<'confirm'> = {
  elicitId: 'q1',
  type: 'confirm',
  message: 'Keep it?',
  payload: { default: true },
};
const chat: ElicitRequest<'chat'> = { elicitId: 'q2', type: 'chat', message: '', payload: {} };

describe('statusWords', () => {
  it('says waiting only while a question card waits for the person', () => {
    expect(statusWords('waiting', card)).toBe('waiting for your answer');
    expect(statusWords('waiting', chat)).toBe('your turn');
  });

  it('does not say waiting when nothing waits, whatever the status says', () => {
    expect(statusWords('waiting', null)).toBe('ready');
    expect(statusWords('idle', null)).toBe('ready');
    expect(statusWords('waiting', null)).not.toMatch(/waiting/);
  });

  it('says working while the agent works, a question pending or not', () => {
    expect(statusWords('running', null)).toBe('working');
    expect(statusWords('running', card)).toBe('working');
  });
});

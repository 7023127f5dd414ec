import { answerSummary } from './answer-summary';

describe('how an answer reads under its question', () => {
  const question = { type: 'confirm', message: 'Done for now?', payload: { default: false } };

  it('reads a question whose deadline passed as skipped, never as the user’s cancel', () => {
    expect(answerSummary(question, 'cancel', undefined, true)).toBe('Skipped for now, no answer');
    expect(answerSummary(question, 'cancel', undefined)).toBe('Cancelled');
  });

  it('reads a tap as the card did', () => {
    expect(answerSummary(question, 'accept', { value: true })).toBe('Yes');
  });
});

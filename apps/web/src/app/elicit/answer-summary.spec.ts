import { answerSummary } from './answer-summary';

describe('how an answer reads under its question', () => {
  const question = { type: 'confirm', message: 'Done for now?', payload: { default: false } };

  it('reads a question whose deadline passed as skipped, never as the user’s cancel', () => {
    expect(answerSummary(question, 'cancel', undefined, true)).toBe('Skipped for now, no answer');
    expect(answerSummary(question, 'cancel', undefined)).toBe('Cancelled');
    // "Skip this" on the card declines it: it reads as the button said
    expect(answerSummary(question, 'decline', undefined)).toBe('Skipped');
  });

  it('reads a tap as the card did', () => {
    expect(answerSummary(question, 'accept', { value: true })).toBe('Yes');
  });
});

describe('how a form’s answer reads under its question', () => {
  const form = {
    type: 'form',
    message: 'A little about the winter coat',
    payload: {},
    schema: {
      type: 'object',
      properties: {
        condition: {
          type: 'string',
          enum: ['like new', 'good', 'worn'],
          description: 'What condition is it in?',
        },
        bags: { type: 'integer', description: 'How many bags or boxes?' },
        collection: { type: 'boolean', description: 'Would you rather it were collected?' },
        room: { type: 'string', title: 'Room', enum: ['hall'], enumNames: ['The hall'] },
      },
    },
  };

  it('in the form’s own words: its questions, yes or no, an option’s label; no property names', () => {
    expect(
      answerSummary(form, 'accept', { condition: 'good', bags: 2, collection: false, room: 'hall' }),
    ).toBe(
      'What condition is it in? good · How many bags or boxes? 2 · Would you rather it were collected? No · Room: The hall',
    );
  });

  it('reads a value the schema does not name by its name in words, and never as JSON', () => {
    expect(answerSummary(form, 'accept', { pickUpDay: 'Friday', extra: { nested: true } })).toBe(
      'Pick up day: Friday',
    );
    expect(answerSummary(form, 'accept', { extra: [1, 2] })).toBe('Answered');
  });
});

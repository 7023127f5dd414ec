import { answerSummary } from './answer-summary';

describe('how an answer reads under its question', () => {
  const question = { type: 'confirm', message: 'Done for now?', payload: { default: false } };

  it('reads a question whose deadline passed as skipped, never as the user’s cancel', () => {
    expect(answerSummary(question, 'cancel', undefined, 'timed-out')).toBe('Skipped for now, no answer');
    expect(answerSummary(question, 'cancel', undefined)).toBe('Cancelled');
    // "Skip this" on the card declines it: it reads as the button said
    expect(answerSummary(question, 'decline', undefined)).toBe('Skipped');
  });

  it('reads a tap as the card did', () => {
    expect(answerSummary(question, 'accept', { value: true })).toBe('Yes');
  });
});

describe('how a location reads under its question', () => {
  const where = { type: 'location', message: 'Share roughly where you are?', payload: { accuracy: 'low' } };
  it('says the device shared it, or not when the words named a town', () => {
    expect(answerSummary(where, 'accept', { lat: 53.79648, lng: -1.54785 })).toBe(
      'Location shared (53.796, -1.548)',
    );
    expect(answerSummary(where, 'accept', { lat: 53.79648, lng: -1.54785 }, 'from-words')).toBe(
      'Location (53.796, -1.548)',
    );
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

describe('how a thing’s place reads under its card', () => {
  const card = {
    type: 'propose-disposition',
    message: 'What about the clothes?',
    payload: {
      item: 'clothes',
      choices: [
        { id: 'a', label: 'Keep them here', disposition: { kind: 'place', location: 'its spot here' } },
      ],
    },
  };
  const wardrobe = { disposition: { kind: 'place', location: 'in the wardrobe' }, wasCorrection: true };

  it('says a place the way a person would, whether or not it names how it is put there', () => {
    expect(answerSummary(card, 'accept', wardrobe)).toBe('Put in the wardrobe (my correction)');
    const shelf = { disposition: { kind: 'place', location: 'the shelf' }, wasCorrection: true };
    expect(answerSummary(card, 'accept', shelf)).toBe('Put on the shelf (my correction)');
    const sale = { disposition: { kind: 'place', location: 'sell pile' }, wasCorrection: true };
    expect(answerSummary(card, 'accept', sale)).toBe('Put on the sell pile (my correction)');
    // another room: taken there
    const office = { disposition: { kind: 'place', location: 'office' }, wasCorrection: true };
    expect(answerSummary(card, 'accept', office, 'from-words')).toBe('Take to the office');
    const spare = { disposition: { kind: 'place', location: 'the spare room' }, wasCorrection: true };
    expect(answerSummary(card, 'accept', spare, 'from-words')).toBe('Take to the spare room');
    // a place away from home: taken there too
    const mended = { disposition: { kind: 'place', location: 'the repair shop' }, wasCorrection: false };
    expect(answerSummary(card, 'accept', mended)).toBe('Take to the repair shop');
    const pharmacy = { disposition: { kind: 'place', location: 'the pharmacy' }, wasCorrection: false };
    expect(answerSummary(card, 'accept', pharmacy)).toBe('Take to the pharmacy');
  });

  it('reads what typed words were taken as as the answer itself, not as a correction', () => {
    expect(answerSummary(card, 'accept', wardrobe, 'from-words')).toBe('Put in the wardrobe');
    const partner = { disposition: { kind: 'place', location: 'your partner' }, wasCorrection: true };
    expect(answerSummary(card, 'accept', partner, 'from-words')).toBe('To your partner');
    const brother = { disposition: { kind: 'place', location: 'your brother' }, wasCorrection: true };
    expect(answerSummary(card, 'accept', brother, 'from-words')).toBe('To your brother');
    const tapped = { disposition: { kind: 'place', location: 'its spot here' }, wasCorrection: false };
    expect(answerSummary(card, 'accept', tapped, 'from-words')).toBe('Keep them here');
    // "keep it" typed: kept where it is, in the words' own "here"
    const kept = { disposition: { kind: 'place', location: 'here' }, wasCorrection: true };
    expect(answerSummary(card, 'accept', kept, 'from-words')).toBe('Keep it here');
  });
});

import { placeNamedIn } from './place-names';

describe('the town words typed at a location question name', () => {
  it.each([
    ["I'm in Leeds", 'Leeds', 'GB'],
    ['leeds', 'leeds', 'GB'],
    ['Leeds city centre', 'Leeds', 'GB'],
    ['near Camden Town, London', 'Camden Town', 'GB'],
    ['Paris', 'Paris', 'FR'],
    ['Paris, France', 'Paris', 'FR'],
    ['Birmingham UK', 'Birmingham', 'GB'],
    ['I live in Birmingham, England', 'Birmingham', 'GB'],
    ["we live just outside York, it's a small village", 'York', 'GB'],
  ])('%j is %s (%s)', (text, name, country) =>
    expect(placeNamedIn(text)).toMatchObject({ kind: 'place', place: { name, country } }),
  );

  it('is the most populous of its name when it is far bigger than the next, and says so when it is not', () => {
    expect(placeNamedIn('London')).toMatchObject({ kind: 'place', place: { country: 'GB' } });
    expect(placeNamedIn('Reading')).toEqual({ kind: 'ambiguous', name: 'Reading', countries: ['GB', 'US'] });
    // said which, with the country or a city near it
    expect(placeNamedIn('Reading, England')).toMatchObject({ kind: 'place', place: { country: 'GB' } });
    expect(placeNamedIn('Camden Town, London')).toMatchObject({ kind: 'place', place: { country: 'GB' } });
  });

  it.each([
    'at home',
    "I'm at work",
    'why do you need that?',
    "I'm in the middle of moving house so I can't say",
  ])('%j names none', (text) => expect(placeNamedIn(text)).toBeNull());
});

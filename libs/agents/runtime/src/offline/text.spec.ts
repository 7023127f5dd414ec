import { countWords, hashJson, keywords, keywordsAsSaid, mentions, stem, wordChunks } from './text';

describe('keywords', () => {
  it('keeps the meaningful words, lower-cased, once each, in order', () => {
    expect(keywords('Where do the Books and the lamp go? The BOOKS!')).toEqual(['book', 'lamp', 'go']);
  });

  it('stems plurals so that a word meets its singular', () => {
    expect(['books', 'boxes', 'batteries', 'dishes', 'glasses', 'toys'].map(stem)).toEqual([
      'book',
      'box',
      'battery',
      'dish',
      'glass',
      'toy',
    ]);
  });

  it('drops stop-words before stemming, and single letters', () => {
    expect(keywords("I don't know, does it go in a box?")).toEqual(['know', 'go', 'box']);
  });

  it('keeps ids with digits', () => {
    expect(keywords('help with quarantined item abc123')).toEqual(['help', 'quarantined', 'item', 'abc123']);
  });

  it('can give the words as the user wrote them, for reflecting back', () => {
    expect(keywordsAsSaid('the clothes and more Clothes')).toEqual(['clothes']);
  });
});

describe('mentions', () => {
  it('matches plurals against singulars, either way round', () => {
    expect(mentions('Toss the boxes', ['box'])).toBe(true);
    expect(mentions('one book', ['books'])).toBe(true);
  });

  it('matches whole words only', () => {
    expect(mentions('a boxer', ['box'])).toBe(false);
  });

  it('matches a phrase only as consecutive words', () => {
    expect(mentions('I will put it away', ['put away'])).toBe(false);
    expect(mentions('put away the mugs', ['put away'])).toBe(true);
  });

  it('counts stop-words and single letters, which keywords leave out', () => {
    expect(mentions('B for all of these', ['b'])).toBe(true);
    expect(mentions("I'm done", ['done'])).toBe(true);
  });
});

describe('wordChunks', () => {
  it.each(['Hello there,  world.', '  leading and trailing  ', 'one', '', 'line\nbreak'])(
    'cuts %j into pieces that concatenate back to it',
    (text) => {
      expect(wordChunks(text).join('')).toBe(text);
    },
  );

  it('gives one piece per word', () => {
    expect(wordChunks('a bb ccc')).toEqual(['a', ' bb', ' ccc']);
  });
});

describe('hashJson and countWords', () => {
  it('hashes equal content equally, whatever the key order', () => {
    expect(hashJson({ a: 1, b: [true, null] })).toBe(hashJson({ b: [true, null], a: 1 }));
    expect(hashJson({ a: 1 })).not.toBe(hashJson({ a: 2 }));
  });

  it('counts words separated by whitespace', () => {
    expect(countWords('  two words\n')).toBe(2);
    expect(countWords('')).toBe(0);
  });

  it("counts what a regular expression's \\S+ matches, over every kind of whitespace", () => {
    const spaces = ' \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
    const pieces = ['word', 'naïve', '😀', 'x', '\u200b', '\u0085', '{"a": 1}', ...spaces];
    let seed = 7;
    for (let sample = 0; sample < 200; sample++) {
      let text = '';
      for (let i = 0; i < 12; i++) {
        seed = (seed * 48271) % 2147483647;
        text += pieces[seed % pieces.length];
      }
      expect(countWords(text)).toBe(text.match(/\S+/g)?.length ?? 0);
    }
  });
});

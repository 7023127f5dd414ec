import { linkedParts } from './message-links';

describe('linkedParts: a question’s web addresses as links', () => {
  it('makes each http(s) address a link, leaving the sentence’s stop outside it', () => {
    expect(linkedParts('Sign in first.\n\nOpen https://example.com/login?next=%2F.')).toEqual([
      { text: 'Sign in first.\n\nOpen ' },
      { text: 'https://example.com/login?next=%2F', href: 'https://example.com/login?next=%2F' },
      { text: '.' },
    ]);
  });

  it('leaves a message without an address as it is, and takes no other scheme', () => {
    expect(linkedParts('Done for today?')).toEqual([{ text: 'Done for today?' }]);
    expect(linkedParts('javascript:alert(1) ftp://x.test')).toEqual([
      { text: 'javascript:alert(1) ftp://x.test' },
    ]);
  });
});

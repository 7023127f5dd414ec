import { kindOf } from './item-kind';

describe('the kind of place that takes a thing', () => {
  it.each([
    ['winter coat', 'clothes'],
    ['old paperbacks', 'books'],
    ['box of lego', 'toys'],
    ['wooden chair', 'furniture'],
    ['reading lamp', 'electronics'],
    ['kids clothes', 'clothes'],
    ['something odd', 'anything'],
  ])('a %s goes where %s are taken', (item, kind) => expect(kindOf(item)).toBe(kind));
});

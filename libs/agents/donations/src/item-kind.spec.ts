import { comesInBags, kindOf } from './item-kind';

describe('the kind of place that takes a thing', () => {
  it.each([
    ['winter coat', 'clothes'],
    ['old paperbacks', 'books'],
    ['box of lego', 'toys'],
    ['wooden chair', 'furniture'],
    ['reading lamp', 'electronics'],
    ['electricals', 'electronics'],
    ['kids clothes', 'clothes'],
    ['something odd', 'anything'],
  ])('a %s goes where %s are taken', (item, kind) => expect(kindOf(item)).toBe(kind));
});

describe('how much there is of a thing', () => {
  it.each([
    ['kids clothes'],
    ['old books'],
    ['box of lego'],
    ['mugs'],
    ['phone chargers'],
    ['bedding'],
    ['baby clothing'],
  ])('%s may fill bags or boxes: the form asks how many', (item) => expect(comesInBags(item)).toBe(true));

  it.each([['sofa'], ['wooden chair'], ['bike'], ['old mattress'], ['washing machine'], ['old laptop']])(
    'a %s comes as it is: the form does not ask about bags',
    (item) => expect(comesInBags(item)).toBe(false),
  );

  it.each([['winter coat'], ['old kettle'], ['reading lamp'], ['glass vase'], ['dress']])(
    'one %s, named as one thing: the form does not ask how many bags',
    (item) => expect(comesInBags(item)).toBe(false),
  );
});

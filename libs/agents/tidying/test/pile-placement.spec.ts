import type { Disposition } from '@sweatpants/domain';
import { isWithinSpace, placementOf, roomNamedIn, roomOfSpace, type Space } from '../src/pile-placement';

const desk: Space = { room: 'office', function: 'working' };
const bedroom: Space = { room: 'bedroom', function: 'sleeping' };
const kitchen: Space = { room: 'kitchen', function: 'cooking' };
/** no photo: the room is known only by what the space is for */
const forCooking: Space = { room: null, function: 'cooking' };
const unknown: Space = { room: 'room', function: 'relaxing' };

describe('the room a place names', () => {
  it.each([
    ['Kitchen', 'kitchen'],
    ['the kitchen shelf', 'kitchen'],
    ['shelf in the kitchen', 'kitchen'],
    ['the fridge', 'kitchen'],
    ['bathroom cabinet', 'bathroom'],
    ['the hall closet', 'hallway'],
    ['the closet', 'bedroom'],
    ['garage', 'garage'],
    // a kids' room is a bedroom, and so is a playroom
    ["the kids' room", 'bedroom'],
    ['playroom', 'bedroom'],
    ['on the desk', null],
    ['top drawer', null],
    ['its spot here', null],
  ])('"%s" → %s', (place, room) => {
    expect(roomNamedIn(place)).toBe(room);
  });

  it('knows the space by its photo, else by what it is for, else not at all', () => {
    expect(roomOfSpace(desk)).toBe('office');
    expect(roomOfSpace({ room: 'home office', function: null })).toBe('office');
    expect(roomOfSpace(forCooking)).toBe('kitchen');
    expect(roomOfSpace(unknown)).toBeNull();
  });
});

describe('whether a place is within the space being tidied', () => {
  it.each<[string, Space, boolean]>([
    // tidying a desk in the office
    ['on the desk', desk, true],
    ['the shelf', desk, true],
    ['top drawer', desk, true],
    ['here', desk, true],
    ['its spot here', desk, true],
    ['the filing box', desk, true],
    ['the office shelf', desk, true],
    ['Kitchen', desk, false],
    ['the kitchen shelf', desk, false],
    ['bathroom', desk, false],
    ['the bedroom', desk, false],
    ['the hallway', desk, false],
    ['the garage', desk, false],
    ['the closet', desk, false],
    ['the donation box', desk, false],
    ['the car', desk, false],
    ['another room', desk, false],
    // the same places, tidying other rooms
    ['the closet', bedroom, true],
    ['the hall closet', bedroom, false],
    ['the kitchen shelf', kitchen, true],
    ['the fridge', kitchen, true],
    ['the fridge', forCooking, true],
    ['on the desk', kitchen, true],
    // a spare room is a bedroom of sorts: its wardrobe is in it, the chemist is not
    ['the wardrobe', { room: 'spare room', function: null }, true],
    ['the chemist', { room: 'spare room', function: null }, false],
    ['the wardrobe', { room: null, function: 'having guests to stay' }, true],
    // a named room is elsewhere when the space's room is not known
    ['the kitchen', unknown, false],
    ['the shelf', unknown, true],
  ])('"%s" while tidying %j → %s', (place, space, within) => {
    expect(isWithinSpace(place, space)).toBe(within);
  });
});

describe('the pile a disposition puts an item on', () => {
  it.each<[string, Disposition, Space, unknown]>([
    ['trash', { kind: 'trash' }, desk, { pile: 'out', destination: 'trash' }],
    ['donate', { kind: 'donate' }, desk, { pile: 'out', destination: 'donation' }],
    ['recycle', { kind: 'recycle' }, desk, { pile: 'out', destination: 'recycling' }],
    ['not now', { kind: 'skip' }, desk, { pile: 'unsure' }],
    ['need more info', { kind: 'need-more-info' }, desk, { pile: 'unsure' }],
    [
      'a place in this room, kept as its spot',
      { kind: 'place', location: 'on the desk' },
      desk,
      { pile: 'belongs', spot: 'on the desk' },
    ],
    [
      'right here: no spot to keep',
      { kind: 'place', location: 'their spot here' },
      desk,
      { pile: 'belongs' },
    ],
    [
      'a place in another room',
      { kind: 'place', location: 'kitchen' },
      desk,
      { pile: 'out', destination: 'kitchen' },
    ],
    [
      'a place in the room being tidied',
      { kind: 'place', location: 'kitchen' },
      kitchen,
      { pile: 'belongs', spot: 'kitchen' },
    ],
    ['a place with no words', { kind: 'place', location: '  ' }, desk, { pile: 'unsure' }],
  ])('%s', (_name, disposition, space, placement) => {
    expect(placementOf(disposition, space)).toEqual(placement);
  });
});

import { choicesFor, functionsFor, photoFromWords } from '../src/offline-guesses';
import { extractFromWords } from '../src/offline-text';

/** What the offline rules read from a message, as the extraction tool's input. */
const read = (text: string, phase = 'sorting') => extractFromWords(text, phase);

describe("the offline rules' reading of a message", () => {
  it.each([['wait, what is the weather like today?'], ["what's the time?"], ['hello'], ['thanks!'], ['hmm']])(
    'reads %j as no item: it is not about a thing in the space',
    (text) => {
      expect(read(text)).toMatchObject({ intent: 'continue', item: null });
    },
  );

  it.each([
    ['the lamp', 'lamp'],
    ['a coffee mug', 'coffee mug'],
    ['what about the lamp?', 'lamp'],
    ['books, mugs and cables everywhere', 'books'],
    ["ok the cables first. they're all tangled", 'cables'],
  ])('still reads %j as the item %j', (text, item) => {
    expect(read(text)).toMatchObject({ item });
  });

  it('reads "where do things that break go?" as a question, naming no thing called "break"', () => {
    expect(read('where do things that break go?')).toMatchObject({ item: null });
  });

  it('reads a thing said to be slow, then binned, as a decision, not as flagging', () => {
    expect(read('the laptop is so slow, bin it')).toMatchObject({
      intent: 'decided',
      item: 'laptop',
      choice: 'trash',
    });
  });

  it.each(['ugh this is taking forever', 'I need a break', "we're getting nowhere"])(
    'reads %j as flagging, about no thing',
    (text) => {
      expect(read(text)).toMatchObject({ intent: 'help', item: null, choice: null });
    },
  );

  it.each([['ugh whats even the point, it will be messy again next week'], ["why bother, it's hopeless"]])(
    'reads %j as losing heart, about no thing',
    (text) => {
      expect(read(text)).toMatchObject({ intent: 'help', item: null, choice: null });
    },
  );

  it.each([
    ['keep it on the shelf', 'shelf'],
    ['put it in the kitchen cupboard', 'kitchen cupboard'],
  ])('reads the place in %j as where the thing goes, never as the thing', (text, place) => {
    expect(read(text)).toMatchObject({ intent: 'decided', item: null, choice: 'place', place });
  });

  it.each([
    ['a big pile of jumpers', 'jumpers'],
    ['there is a stack of magazines', 'magazines'],
    ['the mugs instead', 'mugs'],
    ['the lamp again', 'lamp'],
  ])('reads how much there is, or "instead" and "again", as no part of the name: %j is %j', (text, item) => {
    expect(read(text)).toMatchObject({ intent: 'item', item });
  });

  it.each([
    [
      'my desk is a mess: cables, a coffee mug and a pile of old receipts',
      'cables',
      ['coffee mug', 'old receipts'],
    ],
    ["there's cables, a coffee mug and old receipts", 'cables', ['coffee mug', 'old receipts']],
    ['I have books and mugs', 'books', ['mugs']],
    ['cables, a mug and receipts everywhere', 'cables', ['mug', 'receipts']],
    ['My desk is covered in mugs, papers and a lamp', 'mugs', ['papers', 'lamp']],
    ['the floor is full of toys, shoes and a basket', 'toys', ['shoes', 'basket']],
    ['there are 3 mugs, 2 plates and a pile of receipts on my kitchen table', 'mugs', ['plates', 'receipts']],
    // the space said of first, in a sentence of its own
    [
      'my bedroom is a disaster, clothes everywhere, books, a guitar and a pile of cables',
      'clothes',
      ['books', 'guitar', 'cables'],
    ],
    ["the desk's a state, mugs, papers and a lamp", 'mugs', ['papers', 'lamp']],
    // a sentence before the one that says what the space is covered in, or what its list is of
    [
      "honestly I don't know where to start, the kitchen table is covered in mail, mugs and my kid's art stuff",
      'mail',
      ['mugs', "kid's art stuff"],
    ],
    ['ugh. where to start, my desk is a mess: cables, a mug and receipts', 'cables', ['mug', 'receipts']],
    // the space in a sentence of its own, the list in the next; what is said of a thing is no name
    [
      "ugh the kitchen counter. dishes, a toaster we never use, the kids' school stuff and a bunch of takeaway menus",
      'dishes',
      ['toaster', "kids' school stuff", 'takeaway menus'],
    ],
    // what is said of a thing named without its article is no name either
    [
      'my wardrobe is overflowing, clothes I never wear, shoes and old bags',
      'clothes',
      ['shoes', 'old bags'],
    ],
    // where things came from is no part of their name, and what a thing is full of is the thing
    [
      'the hallway is a mess: shoes everywhere, a pile of mugs from the office, and an umbrella stand full of broken umbrellas',
      'shoes',
      ['mugs', 'broken umbrellas'],
    ],
    // one thing after the space said of is a list of one
    ['the hallway is a mess: shoes everywhere', 'shoes', []],
    ["my desk's a state: cables", 'cables', []],
    // and so is one thing after the space said of in a sentence of its own, with what the person
    // says of themselves after it no thing
    ["my kids room is a disaster, toys everywhere, I don't even know where to start", 'toys', []],
    ['my bedroom is a disaster, clothes everywhere', 'clothes', []],
    // each part may say there is, or where its things lie
    ["the kids toys are everywhere, and there's a pile of shoes by the door", 'kids toys', ['shoes']],
  ])('reads the list %j in the order named: %j first, then %j', (text, item, also) => {
    expect(read(text)).toMatchObject({ intent: 'item', item, also });
  });

  it.each([
    [
      'the catalogues and flyers go in the recycling',
      'catalogues',
      [{ item: 'flyers', choice: 'place', place: 'recycling' }],
    ],
    [
      'bills go in the drawer, the catalogues and flyers straight in the recycling',
      'bills',
      [
        { item: 'catalogues', choice: 'place', place: 'recycling' },
        { item: 'flyers', choice: 'place', place: 'recycling' },
      ],
    ],
  ])(
    'reads %j with both things said together decided alike: %j first, then %j',
    (text, item, alsoDecided) => {
      expect(read(text)).toMatchObject({ intent: 'decided', item, alsoDecided });
    },
  );

  it.each([
    [
      'I want to keep the photos but the frames can go',
      'photos',
      'keep',
      [{ item: 'frames', choice: 'trash' }],
    ],
    ['keep the books but bin the magazines', 'books', 'keep', [{ item: 'magazines', choice: 'trash' }]],
  ])(
    'reads %j, two things decided either side of "but", as a decision each: %j (%s), then %j',
    (text, item, choice, alsoDecided) => {
      expect(read(text)).toMatchObject({ intent: 'decided', item, choice, alsoDecided });
    },
  );

  it.each([
    // what a thing is asked after with, or when, is no part of its name; nor are the bags or
    // boxes it comes in
    ['bin bags full of clothes', { intent: 'item', item: 'clothes' }],
    ['two boxes of books', { intent: 'item', item: 'books' }],
    ['where should the scissors live?', { item: 'scissors' }],
    ["I'll deal with the paperwork tomorrow", { intent: 'decided', item: 'paperwork', choice: 'unsure' }],
    ["I'll take the lamp to the tip tomorrow", { item: 'lamp', choice: 'place', place: 'tip' }],
    // whose it was, and a filler said last, are no part of its name either
    ["my son's lego, he's 20 now", { intent: 'item', item: 'lego' }],
    ['just the usual junk really', { item: 'usual junk', choice: 'trash' }],
    // and words that name nothing are no thing
    ['not really', { intent: 'continue', item: null }],
    // where a thing will be gone through is where it goes
    ["the post I'll sort at the table", { item: 'post', choice: 'place', place: 'table' }],
  ])('reads %j as %j', (text, reading) => {
    expect(read(text)).toMatchObject(reading);
  });

  it.each([
    ["there's also a pile of clothes she's grown out of", 'clothes'],
    ['also some clothes she has outgrown', 'clothes'],
    ["a bike he's grown out of", 'bike'],
  ])('reads %j, what is said of it with "she\'s" or "also", as the %s', (text, item) => {
    expect(read(text)).toMatchObject({ intent: 'item', item });
  });

  it.each(['honestly we never use it, someone else might', 'someone else could use it'])(
    'reads %j as the thing in question given away, naming no thing ("honestly" is none)',
    (text) => {
      expect(read(text)).toMatchObject({ item: null, also: [], choice: 'place', place: 'donation' });
    },
  );

  it.each([
    'it might fit again one day though',
    'just in case',
    'the kids might play with it again one day',
    'my son might want it one day',
  ])("reads %j at the puzzle's card as stuck on the puzzle (the kids are no thing)", (text) => {
    expect(extractFromWords(text, 'sorting', null, 'puzzle')).toMatchObject({
      intent: 'help',
      item: 'puzzle',
    });
  });

  it.each([
    ['clothes I never wear', 'clothes'],
    ['old cables that nobody uses', 'old cables'],
    ['a jumper that doesnt fit anymore', 'jumper'],
  ])('reads %j as the thing named, what is said of it no part of its name: %j', (text, item) => {
    expect(read(text)).toMatchObject({ intent: 'item', item });
  });

  it('reads "keep it, I might need it one day" as a decision, no doubt', () => {
    expect(extractFromWords('keep it, I might need it one day', 'sorting', null, 'puzzle')).toMatchObject({
      intent: 'decided',
      choice: 'keep',
    });
  });

  it('reads a part of the thing in question ("some of them"), or what it is for ("for my laptop"), as no new thing', () => {
    expect(read('I need some of them for my laptop, the rest can go')).toMatchObject({ item: null });
  });

  it.each([
    ['keep the bills, bin the rest', 'keep', { choice: 'trash' }],
    ['bills stay, rest is junk', 'keep', { choice: 'trash' }],
    ['the bills I need to keep, the rest is junk', 'keep', { choice: 'trash' }],
    ['keep the bills and recycle everything else', 'keep', { choice: 'place', place: 'recycling' }],
  ])(
    'reads %j as a part (the bills) decided apart from the rest of the thing in question',
    (text, choice, rest) => {
      expect(extractFromWords(text, 'sorting', null, 'mail')).toMatchObject({
        item: 'bills',
        choice,
        alsoDecided: [{ item: 'mail', ...rest }],
      });
      // with no thing in question, the part alone: never the rest's choice for it
      const alone = read(text);
      expect(alone).toMatchObject({ item: 'bills', choice });
      expect(alone['alsoDecided'] ?? []).toEqual([]);
    },
  );

  it.each([
    ['the bills I keep in the drawer', 'bills', { choice: 'place', place: 'drawer' }],
    ['the junk mail goes in recycling', 'junk mail', { choice: 'place', place: 'recycling' }],
    ['bin bags go under the sink', 'bin bags', { choice: 'place', place: 'sink' }],
    ['the junk drawer stays', 'junk drawer', { choice: 'keep' }],
    ['bin the junk mail', 'junk mail', { choice: 'trash' }],
    ['the broken crayons can go', 'broken crayons', { choice: 'trash' }],
    ['get rid of the old magazines', 'old magazines', { choice: 'trash' }],
  ])(
    'reads %j as deciding %j as it says, a word of its name ("junk", "bin") no choice of its own',
    (text, item, decided) => {
      expect(read(text)).toMatchObject({ intent: 'decided', item, ...decided });
    },
  );

  it('reads "the chipped one" of the mugs as one chipped mug, and "the chipped ones" as chipped mugs', () => {
    const text = (ones: string) => `the mugs go in the sink, except ${ones}, that's for the bin`;
    expect(extractFromWords(text('the chipped one'), 'sorting', null, 'mugs')).toMatchObject({
      item: 'mugs',
      alsoDecided: [{ item: 'chipped mug', choice: 'trash' }],
    });
    expect(extractFromWords(text('the chipped ones'), 'sorting', null, 'mugs')).toMatchObject({
      alsoDecided: [{ item: 'chipped mugs', choice: 'trash' }],
    });
  });

  it('reads "the drawings I want to keep, the broken crayons can go" as two things decided', () => {
    expect(read('the drawings I want to keep, the broken crayons can go')).toMatchObject({
      item: 'drawings',
      choice: 'keep',
      alsoDecided: [{ item: 'broken crayons', choice: 'trash' }],
    });
  });

  it.each([
    [
      'two go to the kitchen, one I use for pens so it stays',
      'mugs',
      { item: 'mug for pens', choice: 'keep' },
    ],
    ['one stays, the rest go to the kitchen', 'one mug', { item: 'mugs', choice: 'place', place: 'kitchen' }],
  ])(
    'reads %j, told by how many, as the thing in question and a part of it kept apart',
    (text, item, also) => {
      expect(extractFromWords(text.toLowerCase(), 'sorting', null, 'mugs')).toMatchObject({
        item,
        alsoDecided: [also],
      });
    },
  );

  it('reads "two go to the kitchen" as no thing called "two"', () => {
    expect(read('two go to the kitchen')).toMatchObject({ item: null, choice: 'place', place: 'kitchen' });
  });

  it('reads a question with a comma, or a sentence before the colon, as no list', () => {
    expect(read('wait, where do cables usually go?')).toMatchObject({ also: [] });
    expect(read('so: I moved the lamp and then I sat down')).toMatchObject({ also: [] });
  });

  it.each([
    ['the mug stays here, I drink from it while I work', 'mug'],
    ['the lamp should stay', 'lamp'],
  ])('reads %j as keeping the %j here', (text, item) => {
    expect(read(text)).toMatchObject({ intent: 'decided', item, choice: 'keep' });
  });

  it.each([
    [
      'put the books on the shelf and the cables in the drawer',
      { item: 'books', place: 'shelf', alsoDecided: [{ item: 'cables', choice: 'place', place: 'drawer' }] },
    ],
    ['old receipts: bin', { item: 'old receipts', choice: 'trash' }],
    ["I don't know what to do with the receipts", { intent: 'item', item: 'receipts' }],
    ['undo that', { intent: 'undo', item: null }],
    ['take it back', { intent: 'undo', item: null }],
    ['I changed my mind about the lamp', { intent: 'undo', item: 'lamp' }],
    ['take back the coffee mug', { intent: 'undo', item: 'coffee mug' }],
    ['undo that too', { intent: 'undo', item: null }],
    ['undo that one as well', { intent: 'undo', item: null }],
    ['hi! my bedroom is chaos', { item: null }],
    ['sleeping and reading', { item: null, also: [] }],
    ['recycle them', { intent: 'decided', item: null, choice: 'place', place: 'recycling' }],
    ['give it away', { intent: 'decided', item: null, choice: 'place', place: 'donation' }],
    ['one more', { intent: 'start', item: null }],
    ['can you help me with my kitchen counter?', { item: null }],
    ['my wardrobe is overflowing', { item: null }],
    ['storing things', { item: null }],
    ['there are jars, a toaster and loads of mail', { item: 'jars', also: ['toaster', 'mail'] }],
    [
      "bedroom floor is a disaster. clothes, a laundry basket that's overflowing, books and my guitar",
      { item: 'clothes', also: ['laundry basket', 'books', 'guitar'] },
    ],
    ['where was I?', { intent: 'continue', item: null }],
    ["I'm back", { intent: 'start', item: null }],
    [
      'the lamp stays, and the books',
      { item: 'lamp', choice: 'keep', alsoDecided: [{ item: 'books', choice: 'keep' }] },
    ],
    ['books on the shelf', { intent: 'decided', item: 'books', choice: 'place', place: 'shelf' }],
    [
      'books on the shelf and the lamp on the nightstand',
      {
        item: 'books',
        place: 'shelf',
        alsoDecided: [{ item: 'lamp', choice: 'place', place: 'nightstand' }],
      },
    ],
    [
      'put it on the shelf and the lamp on the nightstand',
      { item: null, place: 'shelf', alsoDecided: [{ item: 'lamp', choice: 'place', place: 'nightstand' }] },
    ],
    [
      'bin the receipts and keep the lamp',
      { item: 'receipts', choice: 'trash', alsoDecided: [{ item: 'lamp', choice: 'keep' }] },
    ],
    ['the stuff on the floor', { choice: null, place: null }],
    ['lamp stays where it is', { intent: 'decided', item: 'lamp', choice: 'keep' }],
    ['that goes in the kitchen', { intent: 'decided', item: null, choice: 'place', place: 'kitchen' }],
    [
      'books on the nightstand, lamp stays where it is',
      { item: 'books', place: 'nightstand', alsoDecided: [{ item: 'lamp', choice: 'keep', place: null }] },
    ],
    ['whatever is on the desk', { choice: null, place: null }],
    // said in the passive: what "gets" done is no part of the thing's name
    [
      'the junk mail gets recycled',
      { intent: 'decided', item: 'junk mail', choice: 'place', place: 'recycling' },
    ],
    ['the old batteries get taken to the tip', { item: 'old batteries', choice: 'place', place: 'tip' }],
    ['the books get donated', { item: 'books', choice: 'place', place: 'donation' }],
    // the space named alone before a colon: what follows is what is in it
    ['my desk: mugs', { intent: 'item', item: 'mugs' }],
    ['the hallway: shoes', { intent: 'item', item: 'shoes' }],
  ])('reads %j as %j', (text, reading) => {
    expect(read(text.toLowerCase())).toMatchObject(reading);
  });

  it.each([
    ['they are fine but I never use the big one', { also: ['big cookbook that you never use'] }],
    ["they're fine except the red one is torn", { also: ['red cookbook that is torn'] }],
    ["they're fine but one is cracked", { also: ['cookbook that is cracked'] }],
    [
      'most of them are ok but half of them are falling apart',
      { also: ['cookbooks that are falling apart'] },
    ],
    [
      'the cookbooks are fine but the big one goes to the kitchen',
      { also: [], alsoDecided: [{ item: 'big cookbook', choice: 'place', place: 'kitchen' }] },
    ],
    [
      'most are fine but a few can go',
      { also: [], alsoDecided: [{ item: 'few cookbooks', choice: 'trash' }] },
    ],
  ])(
    "reads %j at the cookbooks' card as the cookbooks kept, and a part of them told apart: %j",
    (text, part) => {
      expect(extractFromWords(text.toLowerCase(), 'sorting', null, 'cookbooks')).toMatchObject({
        intent: 'decided',
        item: 'cookbooks',
        choice: 'keep',
        ...part,
      });
    },
  );

  it.each([
    ['a desk for working', 'working'],
    ["my desk. I can't work here anymore", 'working'],
    ['we cannot even sleep in there', 'sleeping'],
  ])('reads what the space is for in %j: %s', (text, fn) => {
    expect(read(text, 'surveying')).toMatchObject({ function: fn });
  });

  it('still reads where a thing goes', () => {
    expect(read('the mug goes in the kitchen')).toMatchObject({
      item: 'mug',
      choice: 'place',
      place: 'kitchen',
    });
  });

  it.each([
    ['plates are back in the kitchen now. how am I doing?', 'plates', 'kitchen'],
    ['I put the plates back in the kitchen', 'plates', 'kitchen'],
    ['took the plates to the kitchen', 'plates', 'kitchen'],
    ['the mugs are now in the kitchen', 'mugs', 'kitchen'],
    ['I moved the shoes to the hallway', 'shoes', 'hallway'],
  ])('reads a move already made, "%s", as the %s placed in the %s', (text, item, place) => {
    expect(read(text.toLowerCase())).toMatchObject({ intent: 'decided', item, choice: 'place', place });
  });

  it('reads "the bike goes in the shed really" as the shed, not "shed really"', () => {
    expect(read('the bike goes in the shed really')).toMatchObject({ item: 'bike', place: 'shed' });
  });

  it('reads where things lie in the mess ("the clothes are on the floor") as no move', () => {
    expect(read('the clothes are on the floor')).toMatchObject({
      item: 'clothes',
      choice: null,
      place: null,
    });
  });
});

describe("the offline coach's first guesses", () => {
  it.each(['puzzle with missing pieces', 'teddy with a missing eye', 'board game without its dice'])(
    'never offers to donate a %s',
    (item) => expect(choicesFor(item).map((c) => c.label)).not.toContain('Donate'),
  );

  it.each([
    // a room named beats one a thing hints at, and the first named is the one talked about
    ['the hallway is a mess: shoes everywhere, a pile of mugs from the office', 'hallway'],
    ['my bedroom has turned into a second office', 'bedroom'],
    ['my desk is covered in papers', 'office'],
    ['shoes everywhere and coats on the floor', 'hallway'],
    ['the garage: boxes I never opened', 'garage'],
    ['it is just chaos', 'room'],
    ['my kids room is a disaster, toys everywhere', "kids' room"],
    ["the children's bedroom", "kids' room"],
    ['the nursery', "kids' room"],
    ['spare room has turned into a dumping ground. ironing pile, suitcases, a broken printer', 'spare room'],
    ['the spare bedroom', 'spare room'],
  ])('reads %j as about the %s', (words, room) => {
    expect(photoFromWords(words).roomType).toBe(room);
  });

  it('notes the things the words list, by the names they give, and what the mess stops', () => {
    expect(
      photoFromWords(
        "the garage, we can't park the car anymore. bikes, paint tins, a broken lawnmower and boxes of old toys",
      ),
    ).toMatchObject({
      roomType: 'garage',
      visibleItems: ['bikes', 'paint tins', 'broken lawnmower', 'old toys'],
      blockedFunction: "can't park the car",
    });
    // not deciding is no function the mess stops
    expect(photoFromWords("I can't decide about these letters").blockedFunction).toBeNull();
  });

  it('notes the things after the space named alone ("the kids playroom, toys everywhere and a broken scooter"), not the space as a thing', () => {
    expect(photoFromWords('the kids playroom, toys everywhere and a broken scooter')).toMatchObject({
      roomType: "kids' room",
      visibleItems: ['toys', 'broken scooter'],
    });
  });

  it.each([
    ["we can't park the car anymore", 'parking the car'],
    ["the kids can't even play in here", 'playing'],
    ["I can't get dressed in the morning without climbing over stuff", 'getting dressed'],
    // where the person does it says what the space is for, as plainly
    ['my desk is buried under paperwork. I work from home so I need it clear by monday', 'working'],
    ['we sleep in here too', 'sleeping'],
    ['the kids do their homework at this table', 'studying'],
  ])('reads %j as what the space is for: %j', (words, fn) => {
    expect(read(words)).toMatchObject({ function: fn });
  });

  it("asks what a kids' room is for with playing first", () => {
    expect(functionsFor("kids' room")).toEqual(['playing', 'sleeping', 'getting dressed']);
  });

  it('asks what a spare room is for with having guests to stay first', () => {
    expect(functionsFor('spare room')).toEqual(['having guests to stay', 'storing things', 'working']);
  });

  it('reads things named alone where they lie ("toys everywhere") by their name', () => {
    expect(read('toys everywhere')).toMatchObject({ intent: 'item', item: 'toys' });
  });

  it.each([
    ['jumpers', 'Keep them here', 'their spot here'],
    ['clothes', 'Keep them here', 'their spot here'],
    ['lamp', 'Keep it here', 'its spot here'],
    ['board games', 'Keep them here', 'their spot here'],
  ])('offers to keep the %s here in words that agree: %j, %j', (item, keep, spot) => {
    expect(choicesFor(item)).toContainEqual({ label: keep, disposition: { kind: 'place', location: spot } });
  });

  it.each([
    // photos and keepsakes are kept, however old
    ['old photos', 'Keep them here'],
    ['photo album', 'Keep it here'],
    // old is not broken: someone else may use it
    ['old books', 'Donate'],
    ['old jumper', 'Donate'],
    ['broken umbrella', 'Trash'],
    // a broken electrical goes to a recycling centre with the small electricals
    ['broken lamp', 'Recycling centre'],
    ['broken printer', 'Recycling centre'],
    ['old letters', 'Recycle'],
    // paint and batteries go to a recycling centre
    ['paint tins', 'Recycling centre'],
    ['old batteries', 'Recycling centre'],
    // clothes to be washed or ironed are on their way there
    ['ironing pile', 'Ironing board'],
    ['dirty laundry', 'Laundry basket'],
    // medicines go back to a pharmacy, never offered to someone else
    ['old medicines', 'Pharmacy'],
    ['out of date painkillers', 'Pharmacy'],
    // a thing missing a part is never offered to someone else
    ['puzzle with missing pieces', 'Recycle'],
    ['teddy with a missing eye', 'Keep it here'],
    // paperwork is filed (or recycled), never given away; cables are kept or taken for recycling
    ['paperwork', 'File it'],
    ['bank statements', 'File it'],
    ['cables', 'Keep them here'],
  ])('guesses the %s first as %j', (item, first) => {
    expect(choicesFor(item)[0]?.label).toBe(first);
  });

  it.each(['paperwork', 'documents', 'bills', 'cables', 'old chargers', 'phone chargers'])(
    'never offers to give away the %s',
    (item) => {
      expect(choicesFor(item).map((c) => c.label)).not.toContain('Donate');
    },
  );

  it.each([
    ['jumper', 'a jumper that doesnt fit anymore', 'Donate'],
    ['clothes', 'my wardrobe is overflowing, clothes I never wear, shoes and old bags', 'Donate'],
    ['bike', 'a bike my daughter outgrew', 'Donate'],
    ['clothes', "there's also a pile of clothes she's grown out of", 'Donate'],
    // what is said of another thing is not said of this one
    ['shoes', 'clothes I never wear, shoes and old bags', 'Keep them here'],
    ['lamp', 'the lamp, I use it every night', 'Keep it here'],
  ])('guesses the %s first, said of as %j, as %j', (item, said, first) => {
    expect(choicesFor(item, undefined, said)[0]?.label).toBe(first);
  });
});

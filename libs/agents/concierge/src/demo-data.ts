import {
  UNCLASSIFIED,
  type Activity,
  type ActivityStatus,
  type Classification,
  type Person,
} from '@sweatpants/domain';

/**
 * What a new account starts with, so the concierge can be tried at once: five quarantined items
 * in three groups (the interview), four pending ones (`classify_pending`), two already sorted, and
 * the people they come from. Pure: the same `now` gives the same data.
 */
export function demoActivities(now: Date = new Date()): Activity[] {
  return DEMO.map(([id, status, sender, senderName, subject, summary, hoursAgo, guess]) => ({
    id,
    source: 'email',
    sender,
    senderName,
    subject,
    summary,
    receivedAt: new Date(now.getTime() - hoursAgo * 3_600_000).toISOString(),
    status,
    classification: guess ? { ...UNCLASSIFIED, ...guess } : { ...UNCLASSIFIED },
  }));
}

/** The people the demo activities come from. */
export function demoPeople(): Person[] {
  return [
    {
      id: 'person-1',
      email: 'maya.chen@work.example',
      name: 'Maya Chen',
      relationship: 'colleague',
      notes: 'Leads the Q3 planning',
    },
    { id: 'person-2', email: 'sam@rivera.example', name: 'Sam Rivera', relationship: 'family', notes: '' },
    {
      id: 'person-3',
      email: 'orders@trailgear.example',
      name: 'Trailgear',
      relationship: 'vendor',
      notes: 'Bought rain boots in March',
    },
    {
      id: 'person-4',
      email: 'orders@bookbarn.example',
      name: 'Bookbarn',
      relationship: 'vendor',
      notes: 'Orders a book most months',
    },
    {
      id: 'person-5',
      email: 'notices@northbank.example',
      name: 'Northbank',
      relationship: 'service',
      notes: 'Current account',
    },
  ];
}

/** A low-confidence guess: why the classifier quarantined the item rather than acting. */
const unsure = (activityType: string, reasoning: string): Partial<Classification> => ({
  activityType,
  confidence: 0.4,
  reasoning,
});

type DemoRow = [
  id: string,
  status: ActivityStatus,
  sender: string,
  senderName: string,
  subject: string,
  summary: string,
  hoursAgo: number,
  guess?: Partial<Classification>,
];

const DEMO: readonly DemoRow[] = [
  [
    'mail-101',
    'quarantined',
    'deals@trailgear.example',
    'Trailgear',
    '20% off rain shells this weekend',
    'A weekend sale on rain shells and boots.',
    3,
    unsure('promotion', 'A sale from a shop you have ordered from; not sure you want these.'),
  ],
  [
    'mail-102',
    'quarantined',
    'rewards@trailgear.example',
    'Trailgear Rewards',
    'Your points expire in 30 days',
    'You have 420 reward points that expire next month.',
    20,
    unsure('promotion', 'A loyalty reminder; it could matter if you care about the points.'),
  ],
  [
    'mail-103',
    'quarantined',
    'offers@bookbarn.example',
    'Bookbarn',
    'Picks for you this week',
    'Five books chosen from your past orders.',
    30,
    unsure('promotion', 'Recommendations from a shop you buy from.'),
  ],
  [
    'mail-104',
    'quarantined',
    'notices@northbank.example',
    'Northbank',
    'Changes to your account terms',
    'New fees for international transfers from next quarter.',
    8,
    unsure('service-update', 'A notice from your bank; it may be routine or may need action.'),
  ],
  [
    'mail-105',
    'quarantined',
    'hello@weeklysprout.example',
    'The Weekly Sprout',
    'Issue 112: winter greens',
    'A gardening newsletter you may have signed up for.',
    50,
    unsure('newsletter', 'A newsletter you never opened; not sure you subscribed.'),
  ],
  [
    'mail-106',
    'pending',
    'maya.chen@work.example',
    'Maya Chen',
    'Can you review the Q3 deck by Friday?',
    'Maya needs your comments on the planning deck before Friday.',
    1,
  ],
  [
    'mail-107',
    'pending',
    'digest@citynews.example',
    'City News Digest',
    'Your morning digest',
    'Top stories of the day. Unsubscribe at any time.',
    2,
  ],
  [
    'mail-108',
    'pending',
    'orders@trailgear.example',
    'Trailgear',
    'Your order has shipped',
    'Order 4411 (rain boots) is on its way. Receipt attached.',
    4,
  ],
  [
    'mail-109',
    'pending',
    'j.doe@mailbox.example',
    'J. Doe',
    'Quick question',
    'Hi, are you free to chat sometime?',
    6,
  ],
  [
    'mail-110',
    'surfaced',
    'sam@rivera.example',
    'Sam Rivera',
    'Dinner on Sunday?',
    'Sam asks whether you can come to dinner on Sunday.',
    26,
    {
      activityType: 'personal',
      autonomyTier: 3,
      confidence: 0.9,
      personas: ['family'],
      reasoning: 'From family, asking you something.',
    },
  ],
  [
    'mail-111',
    'archived',
    'news@trailgear.example',
    'Trailgear News',
    'Spring catalogue',
    'The new season catalogue.',
    300,
    {
      activityType: 'newsletter',
      autonomyTier: 1,
      confidence: 0.9,
      reasoning: 'A marketing list.',
    },
  ],
];

import { createProtocol, type AgentPlugin, type Implementation } from '@sweatpants/agent-runtime';
import type { Operation } from 'effection';
import * as z from 'zod';

/** A point on the map, as the browser's location elicit answers it. */
export const PointSchema = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) });
export type Point = z.infer<typeof PointSchema>;

/** What a drop-off place takes. */
export const KINDS = [
  'clothes',
  'books',
  'toys',
  'kitchenware',
  'electronics',
  'furniture',
  'anything',
] as const;
export const KindSchema = z.enum(KINDS);
export type Kind = z.infer<typeof KindSchema>;

/** What condition a thing is in, as the person says on its form. */
export const ConditionSchema = z.enum(['like new', 'good', 'worn']);
export type Condition = z.infer<typeof ConditionSchema>;

/** How a place takes things: the person brings them, or it comes and collects them. */
export const ServiceSchema = z.enum(['drop-off', 'collection']);
export type Service = z.infer<typeof ServiceSchema>;

export const PlaceSchema = z.object({
  name: z.string(),
  /** a drop-off place's address; a collection service's base */
  address: z.string(),
  /** when it is open; for a collection service, when to book */
  opening: z.string(),
  takes: z.array(KindSchema),
  /** from the point searched, rounded to 100 m */
  km: z.number(),
  /** a collection service's reach from its base, in km: it collects only within it */
  servesKm: z.number().optional(),
});
export type Place = z.infer<typeof PlaceSchema>;

/**
 * Where things can be given away near a point: a protocol, so the helper asks without knowing
 * which directory answers (the demo one below, a council's open data, a test's). A search goes
 * through the directory's lists one by one and reports each as it is checked.
 */
export const DropOffDirectory = createProtocol('drop-off-directory', {
  search: {
    args: z.object({
      near: PointSchema,
      kind: KindSchema,
      limit: z.number().int().min(1).max(10),
      /** drop-off places when absent, as before collection services were listed */
      service: ServiceSchema.optional(),
      /** worn things: places that only resell what they take are left out */
      condition: ConditionSchema.optional(),
    }),
    progress: z.object({ list: z.string(), checked: z.number().int(), total: z.number().int() }),
    returns: z.object({
      directory: z.string(),
      /** where the directory's places are, in words, for telling someone far from all of them */
      area: z.string().optional(),
      places: z.array(PlaceSchema),
    }),
  },
});
export type DirectoryImplementation = Implementation<(typeof DropOffDirectory)['spec']>;

interface Listed {
  name: string;
  address: string;
  opening: string;
  takes: readonly Kind[];
  at: Point;
  servesKm?: number;
  /** it sells on what it takes, so it takes only what is fit to sell (a charity shop) */
  resells?: true;
}

/**
 * A directory for demonstrations and tests: lists of made-up places in central London, so a
 * search anywhere finds the nearest of them (far away, from elsewhere: the helper says it knows
 * nothing near). Three lists of places to take things to, one of services that collect.
 */
const DEMO_LISTS: readonly { list: string; service: Service; places: readonly Listed[] }[] = [
  {
    list: 'charity shops',
    service: 'drop-off',
    places: [
      {
        name: 'Hospice Charity Shop',
        address: '12 Marchmont Street, WC1N',
        opening: 'Mon–Sat 10:00–17:30',
        takes: ['clothes', 'books', 'toys', 'kitchenware'],
        at: { lat: 51.5246, lng: -0.1246 },
        resells: true,
      },
      {
        name: 'Second Chapter Books',
        address: '4 Lamb’s Conduit Street, WC1N',
        opening: 'Tue–Sun 11:00–18:00',
        takes: ['books'],
        at: { lat: 51.5219, lng: -0.1186 },
        resells: true,
      },
    ],
  },
  {
    list: 'clothes and textile banks',
    service: 'drop-off',
    places: [
      {
        name: 'Textile bank, Brunswick Centre car park',
        address: 'Bernard Street, WC1N',
        opening: 'any time',
        takes: ['clothes'],
        at: { lat: 51.5234, lng: -0.1232 },
      },
    ],
  },
  {
    list: 'reuse centres',
    service: 'drop-off',
    places: [
      {
        name: 'Camden Reuse Centre',
        address: '140 York Way, N1',
        opening: 'Wed–Sun 09:00–16:00',
        takes: ['furniture', 'electronics', 'kitchenware', 'toys', 'anything'],
        at: { lat: 51.5413, lng: -0.1224 },
      },
    ],
  },
  {
    list: 'collection services',
    service: 'collection',
    places: [
      {
        name: 'Hospice Charity Shop home collection',
        address: '12 Marchmont Street, WC1N',
        opening: 'book in the shop or by phone, Mon–Sat 10:00–17:30',
        takes: ['clothes', 'books', 'toys'],
        at: { lat: 51.5246, lng: -0.1246 },
        servesKm: 5,
        resells: true,
      },
      {
        name: 'Camden Reuse Centre collection van',
        address: '140 York Way, N1',
        opening: 'book Wed–Sun 09:00–16:00',
        takes: ['furniture', 'electronics', 'kitchenware'],
        at: { lat: 51.5413, lng: -0.1224 },
        servesKm: 8,
      },
    ],
  },
];

/**
 * The demo directory: searches the lists of the service asked for in turn, nearest first, and
 * reports each list checked. It returns the nearest however far: how near is near enough is the
 * helper's to say.
 */
export const demoDirectory: DirectoryImplementation = {
  *search({ near, kind, limit, service = 'drop-off', condition }, send) {
    const lists = DEMO_LISTS.filter((l) => l.service === service);
    const found: { place: Listed; km: number }[] = [];
    for (const [i, { list, places }] of lists.entries()) {
      for (const place of places)
        if (
          (place.takes.includes(kind) || place.takes.includes('anything')) &&
          !(condition === 'worn' && place.resells)
        )
          found.push({ place, km: distanceKm(near, place.at) });
      yield* send({ list, checked: i + 1, total: lists.length });
    }
    // nearest first by the exact distance; the person reads it to 100 m
    const nearest = found.sort((a, b) => a.km - b.km).slice(0, limit);
    return {
      directory: 'demo (central London)',
      area: 'central London',
      places: nearest.map(({ place: { name, address, opening, takes, servesKm }, km }) => ({
        name,
        address,
        opening,
        takes: [...takes],
        km: Math.round(km * 10) / 10,
        ...(servesKm === undefined ? {} : { servesKm }),
      })),
    };
  },
};

/** Great-circle distance (haversine), in kilometres. */
export function distanceKm(a: Point, b: Point): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A plugin that puts `directory` in force for the agent's turns: the helper's definition uses the
 * demo one; a deployment with a real directory installs its own with `Donations.use(...)`, or
 * passes it to `createDonations`.
 */
export function useDirectory(directory: DirectoryImplementation): AgentPlugin {
  return {
    name: 'drop-off directory',
    *install(): Operation<void> {
      yield* DropOffDirectory.implement(directory);
    },
  };
}

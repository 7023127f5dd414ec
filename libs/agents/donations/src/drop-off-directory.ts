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

export const PlaceSchema = z.object({
  name: z.string(),
  address: z.string(),
  opening: z.string(),
  takes: z.array(KindSchema),
  /** from the point searched, rounded to 100 m */
  km: z.number(),
});
export type Place = z.infer<typeof PlaceSchema>;

/**
 * Where things can be given away near a point: a protocol, so the helper asks without knowing
 * which directory answers (the demo one below, a council's open data, a test's). A search goes
 * through the directory's lists one by one and reports each as it is checked.
 */
export const DropOffDirectory = createProtocol('drop-off-directory', {
  search: {
    args: z.object({ near: PointSchema, kind: KindSchema, limit: z.number().int().min(1).max(10) }),
    progress: z.object({ list: z.string(), checked: z.number().int(), total: z.number().int() }),
    returns: z.object({ directory: z.string(), places: z.array(PlaceSchema) }),
  },
});
export type DirectoryImplementation = Implementation<(typeof DropOffDirectory)['spec']>;

interface Listed {
  name: string;
  address: string;
  opening: string;
  takes: readonly Kind[];
  at: Point;
}

/**
 * A directory for demonstrations and tests: three lists of made-up places in central London, so
 * a search anywhere finds the nearest of them (far away, from elsewhere: the reply says how far).
 */
const DEMO_LISTS: readonly { list: string; places: readonly Listed[] }[] = [
  {
    list: 'charity shops',
    places: [
      {
        name: 'Hospice Charity Shop',
        address: '12 Marchmont Street, WC1N',
        opening: 'Mon–Sat 10:00–17:30',
        takes: ['clothes', 'books', 'toys', 'kitchenware'],
        at: { lat: 51.5246, lng: -0.1246 },
      },
      {
        name: 'Second Chapter Books',
        address: '4 Lamb’s Conduit Street, WC1N',
        opening: 'Tue–Sun 11:00–18:00',
        takes: ['books'],
        at: { lat: 51.5219, lng: -0.1186 },
      },
    ],
  },
  {
    list: 'clothes and textile banks',
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
];

/** The demo directory: searches its lists in turn, nearest first, and reports each list checked. */
export const demoDirectory: DirectoryImplementation = {
  *search({ near, kind, limit }, send) {
    const found: { place: Listed; km: number }[] = [];
    for (const [i, { list, places }] of DEMO_LISTS.entries()) {
      for (const place of places)
        if (place.takes.includes(kind) || place.takes.includes('anything'))
          found.push({ place, km: distanceKm(near, place.at) });
      yield* send({ list, checked: i + 1, total: DEMO_LISTS.length });
    }
    // nearest first by the exact distance; the person reads it to 100 m
    const nearest = found.sort((a, b) => a.km - b.km).slice(0, limit);
    return {
      directory: 'demo (central London)',
      places: nearest.map(({ place: { name, address, opening, takes }, km }) => ({
        name,
        address,
        opening,
        takes: [...takes],
        km: Math.round(km * 10) / 10,
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

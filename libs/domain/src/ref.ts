/**
 * Git's revision syntax, the part conversations use: `HEAD`, `HEAD~n` (the n-th ancestor),
 * `HEAD@{n}` (where HEAD was n moves ago), a full node id, or a unique prefix of at least seven
 * hex characters; any of these may be followed by `~n` or `^` steps, as in `HEAD@{2}~3`.
 */
export type RefBase =
  | { kind: 'head' }
  | { kind: 'reflog'; n: number }
  | { kind: 'id'; id: string }
  | { kind: 'prefix'; prefix: string };

export interface ParsedRef {
  base: RefBase;
  /** how many ancestors to walk up from the base */
  ancestors: number;
}

export type RefParseResult = { ok: true; ref: ParsedRef } | { ok: false; error: string };

export const MIN_PREFIX_LENGTH = 7;
const MAX_STEPS = 1_000_000_000;

const BASE = /^(?:(HEAD)(?:@\{(\d+)\})?|([0-9a-f]{7,64}))/;
const STEP = /^(?:~(\d*)|\^)/;

/** Parses a ref string; the error says what is wrong in words a client can show. */
export function parseRef(input: string): RefParseResult {
  const text = input.trim();
  const base = BASE.exec(text);
  if (!base) {
    return {
      ok: false,
      error: `"${input}" is not a ref: use HEAD, HEAD~n, HEAD@{n}, a node id or an id prefix of ${MIN_PREFIX_LENGTH}+ hex characters`,
    };
  }
  let parsed: RefBase;
  if (base[1]) {
    const n = base[2] === undefined ? 0 : Number(base[2]);
    if (!Number.isSafeInteger(n) || n > MAX_STEPS)
      return { ok: false, error: `"${input}": HEAD@{n} is too large` };
    parsed = base[2] === undefined ? { kind: 'head' } : { kind: 'reflog', n };
  } else {
    const hex = base[3] as string;
    parsed = hex.length === 64 ? { kind: 'id', id: hex } : { kind: 'prefix', prefix: hex };
  }
  let rest = text.slice(base[0].length);
  let ancestors = 0;
  while (rest.length > 0) {
    const step = STEP.exec(rest);
    if (!step) return { ok: false, error: `"${input}": unexpected "${rest}" after the ref` };
    ancestors += step[0] === '^' || step[1] === '' ? 1 : Number(step[1]);
    if (!Number.isSafeInteger(ancestors) || ancestors > MAX_STEPS) {
      return { ok: false, error: `"${input}": too many ancestor steps` };
    }
    rest = rest.slice(step[0].length);
  }
  return { ok: true, ref: { base: parsed, ancestors } };
}

/** Renders a parsed ref back to its canonical text (`HEAD@{2}~3`). */
export function formatRef(ref: ParsedRef): string {
  const { base } = ref;
  let text: string;
  switch (base.kind) {
    case 'head':
      text = 'HEAD';
      break;
    case 'reflog':
      text = `HEAD@{${base.n}}`;
      break;
    case 'id':
      text = base.id;
      break;
    case 'prefix':
      text = base.prefix;
      break;
  }
  return ref.ancestors > 0 ? `${text}~${ref.ancestors}` : text;
}

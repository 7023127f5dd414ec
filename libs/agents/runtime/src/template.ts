/**
 * Typed template functions for system prompts (seed 001: the mode's data is the template's
 * context). A mode's template is a function of its data, so TypeScript checks every field a
 * prompt uses; `prompt` is the tag that keeps them readable: the common indentation of a
 * multi-line literal is dropped, lists are joined one per line, and empty values vanish.
 */
export type PromptValue = string | number | boolean | null | undefined | readonly PromptValue[];

/**
 * The tag for system prompts: a prompt is written indented as the code around it is, with its
 * optional parts inline, and the model reads it without the code's indentation or the parts that
 * were left out.
 *
 * @example
 * return prompt`
 *   Session
 *   Phase: ${phaseOf(state)}
 *   ${going.length ? `Going out of this space: ${going.join(', ')}` : ''}
 *   Items processed: ${itemsProcessedOf(state)}`;
 */
export function prompt(strings: TemplateStringsArray, ...values: PromptValue[]): string {
  const lines = layoutOf(strings);
  const rendered = values.map(render);
  const out: string[] = [];
  for (const line of lines) {
    // A line that only held values which all came out empty is left out, not left blank.
    if (line.onlyValues && line.slots.every((slot) => rendered[slot] === '')) continue;
    let text = line.pieces[0] ?? '';
    line.slots.forEach((slot, i) => (text += (rendered[slot] ?? '') + (line.pieces[i + 1] ?? '')));
    out.push(text);
  }
  return out.join('\n').trim();
}

/** One line of a template: its literal pieces (indentation cut) around the values it holds. */
interface Line {
  pieces: string[];
  /** the indexes of the values on this line, in order */
  slots: number[];
  /** nothing but values (and spaces) on the line */
  onlyValues: boolean;
}

/**
 * A template's lines, worked out once per call site (a tag gets the same strings array every
 * time). The indentation is the code's, so it is measured on the literal alone: a value of
 * several lines (a list, a policy) brings lines of its own that must not change what is cut.
 */
const layouts = new WeakMap<TemplateStringsArray, Line[]>();

/** Stands for a value while the literal is measured; never in a prompt's text. */
const SLOT = '\u0000';

function layoutOf(strings: TemplateStringsArray): Line[] {
  const known = layouts.get(strings);
  if (known) return known;
  const raw = strings.join(SLOT).split('\n');
  const indents = raw.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const cut = indents.length ? Math.min(...indents) : 0;
  let slot = 0;
  const lines = raw.map((line): Line => {
    const pieces = line.slice(cut).split(SLOT);
    const slots = pieces.slice(1).map(() => slot++);
    return { pieces, slots, onlyValues: slots.length > 0 && pieces.join('').trim() === '' };
  });
  layouts.set(strings, lines);
  return lines;
}

function render(value: PromptValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).filter(Boolean).join('\n');
  return String(value);
}

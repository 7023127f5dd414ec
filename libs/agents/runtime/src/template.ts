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
  // The indentation is the code's, so it is measured on the literal alone: a value of several
  // lines (a list, a policy) brings lines of its own that must not change what is cut.
  const lines = strings.join(SLOT).split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const cut = indents.length ? Math.min(...indents) : 0;
  let next = 0;
  const out: string[] = [];
  for (const line of lines) {
    const slots = line.split(SLOT).length - 1;
    const rendered = values.slice(next, next + slots).map(render);
    next += slots;
    // A line that only held values which all came out empty is left out, not left blank.
    if (slots > 0 && line.split(SLOT).join('').trim() === '' && rendered.every((v) => v === '')) continue;
    let i = 0;
    out.push(line.slice(cut).replace(new RegExp(SLOT, 'g'), () => rendered[i++] ?? ''));
  }
  return out.join('\n').trim();
}

/** Stands for a value while the literal is measured; never in a prompt's text. */
const SLOT = '\u0000';

function render(value: PromptValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).filter(Boolean).join('\n');
  return String(value);
}

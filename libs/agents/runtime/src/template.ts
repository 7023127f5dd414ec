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
  const text = strings.reduce(
    (out, piece, i) => out + piece + (i < values.length ? render(values[i]) : ''),
    '',
  );
  return dedent(text).trim();
}

function render(value: PromptValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).filter(Boolean).join('\n');
  return String(value);
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n');
}

import type { ToolSpec } from '@sweatpants/agent-runtime';

/**
 * Words that say nothing of what a tool does: a request's frame ("can you", "please", "give me")
 * and the words tool descriptions share ("returns", "the", "mcp").
 */
const FRAME = new Set(
  `a an the of to for and or with on off in by be it its this that these those there is are was can could would
  will please me my you your i we us our what whats how do does did some any all up get give tell show use
  run call tool tools returns return used using can't want need like just now thing things mcp server client
  input output string along different types type ten one two`.split(/\s+/),
);

/** Words a person uses for what a tool's own words say another way: "add" for a sum. */
const SAID_FOR: Readonly<Record<string, string>> = {
  add: 'sum',
  plus: 'sum',
  total: 'sum',
  picture: 'image',
  logo: 'image',
  repeat: 'echo',
  zip: 'compress',
  gzip: 'compress',
};

/** "echoes" → "echo", "images" → "image", "variables" → "variable"; "class" stays. */
const singular = (word: string): string =>
  /(?:ch|sh|ss|x|o)es$/.test(word) ? word.slice(0, -2) : /[^s]s$/.test(word) ? word.slice(0, -1) : word;

/** The content words of `text`, lower-cased, each without a plural's or a verb's -s. */
function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z][a-z']*/g) ?? [];
  return new Set(
    words
      .map((word) => word.replace(/'s$/, ''))
      .filter((word) => word.length >= 3 && !FRAME.has(word))
      .map((word) => SAID_FOR[word] ?? singular(word)),
  );
}

/**
 * The one tool whose name or description shares the most words with what the person asked ("what
 * is the sum of 3 and 4?" → get-sum, "echo hello back" → echo), and the words left to give it;
 * none when no tool shares a word, or two share as many.
 *
 * @example
 * toolDescribedBy(tools, 'add 3 and 4'); // { tool: everything_get-sum, text: '3 and 4' }
 */
export function toolDescribedBy(
  tools: readonly ToolSpec[],
  text: string,
): { tool: ToolSpec; text: string } | undefined {
  const asked = contentWords(text);
  if (asked.size === 0) return undefined;
  // A word of a tool's name says more than one of its description: "trigger an elicitation
  // request" is trigger-elicitation-request, though trigger-url-elicitation's description speaks
  // of a "request path" too.
  const scored = tools
    .map((tool) => {
      const name = contentWords(tool.name.replace(/^[^_]*_/, '').replace(/[-_]/g, ' '));
      const own = new Set([...name, ...contentWords(tool.description)]);
      const shared = [...asked].filter((word) => own.has(word));
      return { tool, shared, inName: shared.filter((word) => name.has(word)).length };
    })
    .filter((s) => s.shared.length > 0)
    .sort((a, b) => b.inName - a.inName || b.shared.length - a.shared.length);
  const [best, next] = scored;
  if (!best || (next && next.inName === best.inName && next.shared.length === best.shared.length))
    return undefined;
  // what is left once the words that named the tool, and the request's frame before them, are
  // taken out: the tool's to be given ("can you echo hello world" → "hello world")
  const naming = new Set(best.shared);
  const words = text
    .replace(/[?.!]+$/, '')
    .split(/\s+/)
    .filter((word) => {
      const [said] = contentWords(word);
      return said === undefined || !naming.has(said);
    });
  while (words.length > 0 && FRAME.has((words[0] ?? '').toLowerCase().replace(/[^a-z]/g, ''))) words.shift();
  const left = words.join(' ').trim();
  return { tool: best.tool, text: left };
}

import type { Json } from '@sweatpants/domain';
import type { ToolSpec } from '@sweatpants/agent-runtime';
import type { OfflineContext, OfflineReply, OfflineRule } from '@sweatpants/agent-runtime/offline';
import { toolDescribedBy } from './described-tool';
import { toolRequests } from './tool-requests';

/**
 * The offered tool the person means by `named`: the one of that full name, else the first (in the
 * offered order) whose name ends in `_<named>`, as `echo` names `everything_echo`, else the first
 * whose name ends in the words said, as `long-running-operation` names
 * `everything_trigger-long-running-operation`.
 */
export function offeredTool(ctx: OfflineContext, named: string): ToolSpec | undefined {
  const exact = ctx.tools.get(named);
  if (exact) return exact;
  const wanted = named.replace(/[^a-zA-Z0-9_-]/g, '_').toLowerCase();
  const tools = [...ctx.tools.values()];
  return (
    tools.find((t) => t.name.toLowerCase().endsWith(`_${wanted}`)) ??
    tools.find((t) => t.name.toLowerCase().endsWith(`-${wanted}`))
  );
}

/** The tool's properties of the given JSON Schema types, required ones first, each in schema order. */
function propertiesOf(tool: ToolSpec, types: readonly string[]): string[] {
  const properties = tool.inputSchema['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  const named = Object.entries(properties).flatMap(([name, schema]) =>
    typeof schema === 'object' &&
    schema !== null &&
    !Array.isArray(schema) &&
    typeof schema['type'] === 'string' &&
    types.includes(schema['type'])
      ? [name]
      : [],
  );
  const required = tool.inputSchema['required'];
  const requiredList = Array.isArray(required) ? required : [];
  return [
    ...named.filter((n) => requiredList.includes(n)),
    ...named.filter((n) => !requiredList.includes(n)),
  ];
}

/**
 * The string property the person's words go to: the first required string property, else the
 * first string property; none when the tool takes no string.
 */
export function wordsProperty(tool: ToolSpec): string | undefined {
  return propertiesOf(tool, ['string'])[0];
}

/**
 * What the person said to give the tool, as its input's values: the words for its string, and the
 * numbers in them, in order, for its numbers ("use get-sum with 2 and 3" → a: 2, b: 3).
 */
export function valuesSaid(tool: ToolSpec, text: string | undefined): Record<string, Json> {
  if (text === undefined) return {};
  const values: Record<string, Json> = {};
  const words = wordsProperty(tool);
  if (words) values[words] = text;
  const numbers = (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  propertiesOf(tool, ['number', 'integer'])
    .slice(0, numbers.length)
    .forEach((name, i) => (values[name] = numbers[i] ?? 0));
  return values;
}

/** The tools offered, by the names a person would say (without their server's prefix). */
function toolList(ctx: OfflineContext): string {
  const names = [...ctx.tools.keys()].map((name) => name.replace(/^[^_]*_/, ''));
  return names.length > 0 ? names.join(', ') : 'none: no MCP server is connected';
}

/**
 * Asking what a tool does, by its name: "what does get-env do?", "what is echo for?", "how do I
 * use get-sum?", "tell me about gzip-file-as-resource". Its name is the words asked about.
 */
const ASKS_ABOUT =
  /^\s*(?:what\s+(?:does|do|is)|what'?s|how\s+(?:do|can|would|should)\s+i\s+use|tell\s+me\s+(?:more\s+)?about|explain|describe)\s+(?:the\s+)?([a-z0-9][\w-]*)(?:\s+tool)?(?:\s+(?:do|does|for|mean|about))?\s*[?.!]*\s*$/i;

/** The tool asked about by name, when the words ask what it does rather than ask for it. */
function toolAskedAbout(ctx: OfflineContext): ToolSpec | undefined {
  const named = ASKS_ABOUT.exec(ctx.userText)?.[1];
  return named ? offeredTool(ctx, named) : undefined;
}

/** A tool's input in words: "a (number): First number and b (number): Second number". */
function inputInWords(tool: ToolSpec): string {
  const properties = tool.inputSchema['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return 'nothing';
  const each = Object.entries(properties).map(([name, schema]) => {
    const about = typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? schema : {};
    const type = typeof about['type'] === 'string' ? ` (${about['type']})` : '';
    const said = typeof about['description'] === 'string' ? `: ${about['description']}` : '';
    return `${name}${type}${said}`;
  });
  return each.length === 0 ? 'nothing' : each.join('; ');
}

/**
 * "what does get-env do?" is answered with what the tool says of itself and what it takes; it is
 * not run (a question about a tool is no request to use it).
 */
const describeAskedTool: OfflineRule = {
  name: 'assistant: say what a tool asked about does, without running it',
  when: (ctx) => !ctx.hasToolResults && toolAskedAbout(ctx) !== undefined,
  reply: (ctx) => {
    const tool = toolAskedAbout(ctx) as ToolSpec;
    const said = tool.name.replace(/^[^_]*_/, '');
    const does = tool.description.trim().replace(/[^.!?]$/, '$&.');
    return {
      text: `${said}: ${does} It takes ${inputInWords(tool)}. To run it, say "use ${said}"${wordsProperty(tool) ? ' with what to give it' : ''}.`,
    };
  },
};

/** "use echo with hello" calls the tool named, with the words after "with" as its text. */
const callNamedTools: OfflineRule = {
  name: 'assistant: call the tools the person names',
  when: (ctx) => !ctx.hasToolResults && toolRequests(ctx.userText).length > 0,
  reply: (ctx) => {
    const requests = toolRequests(ctx.userText);
    const missing = requests.filter((r) => !offeredTool(ctx, r.tool)).map((r) => r.tool);
    // a name not quite a tool's ("run the long operation"): the one tool the words describe
    if (missing.length > 0 && requests.length === 1 && describedIn(ctx)) return describedCall(ctx);
    if (missing.length > 0)
      return { text: `I have no tool called ${missing.join(' or ')}. The tools I have: ${toolList(ctx)}.` };
    return {
      calls: requests.map((request) => {
        const tool = offeredTool(ctx, request.tool) as ToolSpec;
        return {
          name: tool.name,
          input: ctx.inputFor(tool.name, { values: valuesSaid(tool, request.text) }),
        };
      }),
    };
  },
};

const describedIn = (ctx: OfflineContext) =>
  toolDescribedBy([...ctx.tools.values()], ctx.userText) !== undefined;

/** "what is the sum of 3 and 4?", "echo hello": the one tool the words describe, with the rest. */
const callDescribedTool: OfflineRule = {
  name: 'assistant: call the tool the person describes',
  when: (ctx) => !ctx.hasToolResults && describedIn(ctx),
  reply: (ctx) => describedCall(ctx),
};

/** The call of the one tool the words describe, with the words left as what to give it. */
function describedCall(ctx: OfflineContext): OfflineReply {
  const { tool, text } = toolDescribedBy([...ctx.tools.values()], ctx.userText) as {
    tool: ToolSpec;
    text: string;
  };
  const values = valuesSaid(tool, text === '' ? undefined : text);
  return { calls: [{ name: tool.name, input: ctx.inputFor(tool.name, { values }) }] };
}

/** After the calls, what each tool answered, in its own words; a failure said as one. */
const sayWhatToolsAnswered: OfflineRule = {
  name: 'assistant: say what the tools answered',
  when: (ctx) => ctx.hasToolResults,
  reply: (ctx) => ({
    text: ctx.toolResults
      .map((result) =>
        result.isError
          ? `${result.name} did not work: ${result.content}`
          : // an image kept is shown in the chat above these words: not named again in them
            `${result.name}: ${result.content.replace(/\n?\[image [^\]]*, shown to the person\]/g, '')}`,
      )
      .join('\n\n'),
  }),
};

/** Anything else: how to ask for a tool, and which there are. */
const explainTools: OfflineRule = {
  name: 'assistant: say how to ask for a tool',
  reply: (ctx) => ({
    text:
      'Tell me which tool to use and what to give it, for example "use echo with hello". ' +
      `The tools I have: ${toolList(ctx)}.`,
  }),
};

/**
 * How the assistant answers with no API key: it says what a tool asked about does ("what does
 * get-env do?"), calls the tools the person names ("use echo with hello", several joined by
 * "then") or the one their words describe ("what is the sum of 3 and 4?"), says what they
 * answered, and otherwise lists its tools.
 */
export const ASSISTANT_OFFLINE_RULES: readonly OfflineRule[] = [
  describeAskedTool,
  callNamedTools,
  callDescribedTool,
  sayWhatToolsAnswered,
  explainTools,
];

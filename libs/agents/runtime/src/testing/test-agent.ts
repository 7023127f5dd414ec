import * as z from 'zod';
import {
  ask,
  createTool,
  defineMode,
  log,
  notify,
  prompt,
  ToolBreak,
  ToolSuccess,
  modeReducer,
  type AgentDefinition,
} from '..';

/**
 * A small agent with the shape of the real ones: a chatting mode whose tools ask the user a
 * question, report progress and switch mode, and a wrapping-up mode with a structured output.
 */
const confirmTool = createTool('confirm_done')
  .description('Ask the user whether they are done.')
  .input(z.object({ question: z.string() }))
  .execute(function* ({ question }) {
    const asked = yield* ask(
      { type: 'confirm', message: question, payload: { default: false } },
      { value: false },
    );
    return ToolSuccess({ done: asked.content.value, fallback: asked.fallback });
  });

const countTool = createTool('count_items')
  .description('Count the items on the desk, reporting progress.')
  .input(z.object({ n: z.number().int() }))
  .execute(function* ({ n }) {
    yield* notify(`Counted ${n}`, { value: n, total: 10 });
    yield* log('info', 'counted', { n });
    return ToolSuccess({ counted: n });
  });

const wrapTool = createTool('time_to_wrap')
  .description('Switch to wrapping up.')
  .input(z.object({ reason: z.string() }))
  .execute(function* ({ reason }) {
    return ToolBreak(`[Continue as: WindingDown] ${reason}`, { mode: 'winding-down', data: { reason } });
  });

export const testAgent: AgentDefinition = {
  name: 'test',
  modes: [
    defineMode({
      name: 'chatting',
      data: z.null(),
      template: () => prompt`You are chatting. Ask before you wrap up.`,
      tools: () => [confirmTool, countTool, wrapTool],
    }),
    defineMode({
      name: 'winding-down',
      data: z.object({ reason: z.string(), summary: z.string().optional() }),
      template: (data) => prompt`
        You are winding down because: ${data.reason}.
        Summarise the session.`,
      tools: () => [],
      output: {
        schema: z.object({ summary: z.string() }),
        update: (data, output) => ({ ...data, summary: output.summary }),
      },
    }),
  ],
  initial: { mode: 'chatting', data: null },
  state: modeReducer('test', { mode: 'chatting', data: null }),
  chatPrompt: () => ({ message: 'What shall we talk about?' }),
  fallbackReply: (error) => `Sorry, I could not think just now (${error.code}). Try again in a moment.`,
};

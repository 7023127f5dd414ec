import { run } from 'effection';
import * as z from 'zod';
import { AgentCatalog } from './agent-catalog';
import { defineMode } from './agent-definition';
import { createAgent } from './create-agent';
import { exposeOverApi, type Exposure } from './expose-over-api';
import { modeReducer } from './history';
import { RESPOND_TOOL } from './model';
import { testAgent } from './testing/test-agent';
import { createTool, ToolSuccess } from './tool';

const { name: _name, ...definition } = testAgent;

const about: Exposure['about'] = {
  title: 'Chat',
  description: 'Talks about the desk.',
  speaker: 'the assistant',
  needs: [],
  intro: 'Hello.',
  placeholder: 'Say something',
};

const toolNamed = (name: string) =>
  createTool(name)
    .description('a tool')
    .parameter(z.object({}))
    .execute(function* () {
      return ToolSuccess(null);
    });

/** An agent of one mode offering `tools`. */
const agentWith = (name: string, tools: string[]) =>
  createAgent(
    {},
    {
      name,
      modes: [
        defineMode({
          name: 'talking',
          data: z.null(),
          template: () => 'Talk.',
          tools: () => tools.map(toolNamed),
        }),
      ],
      initial: { mode: 'talking', data: null },
      state: modeReducer(name, { mode: 'talking', data: null }),
      fallbackReply: () => 'Sorry.',
    },
  );

describe('exposeOverApi, the plugin that makes an agent one of the api’s', () => {
  it('registers the agent with how it presents itself and its offline rules', async () => {
    const catalog = new AgentCatalog();
    const Chat = createAgent({}, { ...definition, name: 'chat' });
    await run(() => Chat.use(exposeOverApi(catalog, { about, offlineRules: [] })));
    expect(catalog.list()).toEqual([{ name: 'chat', ...about }]);
    expect(catalog.definition('chat')).toBe(Chat.definition);
    expect(catalog.get('chat')?.offlineRules).toEqual([]);
  });

  it('refuses, saying each reason, an agent that could not run as a conversation of the api', async () => {
    const catalog = new AgentCatalog();
    const Broken = agentWith('broken', ['look up', RESPOND_TOOL, 'twice', 'twice']);
    const exposing = run(() => Broken.use(exposeOverApi(catalog, { about: { ...about, title: '' } })));
    await expect(exposing).rejects.toThrow(
      'broken cannot be exposed over the api: title: Too small: expected string to have >=1 characters; ' +
        'mode talking: tool name "look up" is not 1–64 of a-z, 0-9, _ and -; ' +
        "mode talking: respond is the runtime's own tool; mode talking: two tools are named twice",
    );
    expect(catalog.names()).toEqual([]);
  });

  it('refuses a second agent under a name already exposed', async () => {
    const catalog = new AgentCatalog();
    await run(() => agentWith('same', []).use(exposeOverApi(catalog, { about })));
    await expect(run(() => agentWith('same', []).use(exposeOverApi(catalog, { about })))).rejects.toThrow(
      'an agent named same is already registered',
    );
  });
});

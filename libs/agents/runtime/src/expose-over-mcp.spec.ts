import { run } from 'effection';
import * as z from 'zod';
import { AgentCatalog } from './agent-catalog';
import { createAgent } from './create-agent';
import { exposeOverApi, type Exposure } from './expose-over-api';
import { exposeOverMcp, mcpToolName } from './expose-over-mcp';
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

const weigh = createTool('weigh')
  .description('How heavy an item is')
  .parameter(z.object({ item: z.string() }))
  .execute(function* ({ item }) {
    return ToolSuccess({ item, kg: 1.5 });
  });

describe('exposeOverMcp, the plugin that offers an agent to MCP clients', () => {
  it('marks a registered agent as offered over MCP, with the tools of its own it names', async () => {
    const catalog = new AgentCatalog();
    const Chat = createAgent({ weigh }, { ...definition, name: 'chat' });
    const Quiet = createAgent({}, { ...definition, name: 'quiet' });
    await run(function* () {
      yield* Chat.use(exposeOverApi(catalog, { about }));
      yield* Quiet.use(exposeOverApi(catalog, { about }));
      const { tools } = yield* Chat.instance();
      yield* Chat.use(exposeOverMcp(catalog, { tools: [tools.weigh] }));
    });
    expect(catalog.mcpAgents().map((a) => [a.name, a.tools.map((t) => t.name)])).toEqual([
      ['chat', ['weigh']],
    ]);
    expect(catalog.names()).toEqual(['chat', 'quiet']);
    expect(mcpToolName('chat', 'weigh')).toBe('chat_weigh');
  });

  it('refuses an agent the api does not run yet: over MCP it is talked to as a conversation', async () => {
    const catalog = new AgentCatalog();
    const Chat = createAgent({}, { ...definition, name: 'chat' });
    await expect(run(() => Chat.use(exposeOverMcp(catalog)))).rejects.toThrow(
      'chat is exposed over MCP before it is registered',
    );
    expect(catalog.mcpAgents()).toEqual([]);
  });

  it('refuses, saying why, tools an MCP client could not call', async () => {
    const catalog = new AgentCatalog();
    const Chat = createAgent({}, { ...definition, name: 'chat' });
    await run(() => Chat.use(exposeOverApi(catalog, { about })));
    const spaced = createTool('look up')
      .description('a tool')
      .parameter(z.object({}))
      .execute(function* () {
        return ToolSuccess(null);
      });
    await expect(
      run(() => Chat.use(exposeOverMcp(catalog, { tools: [spaced, weigh, weigh] }))),
    ).rejects.toThrow(
      'chat cannot be exposed over MCP: tool "chat_look up" is not 1–128 of A-Z, a-z, 0-9, _, - and .; ' +
        'two tools are named chat_weigh',
    );
    expect(catalog.mcpAgents()).toEqual([]);
  });
});

// A person's MCP client (Claude Desktop, an editor) talks to the coach with a personal access token;
// the person sees that conversation in the browser like any other, answers the coach's question
// there while the MCP call waits, and the history says which moves came through MCP.
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The official SDK's client on the api's /mcp, as an outside MCP client connects. */
async function mcpClient(base, token) {
  const client = new Client({ name: 'e2e-desktop', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** The caller's newest conversation, once the MCP call has made it. */
async function newestConversation(t, token) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { items } = await t.api.call('GET', '/api/conversations?limit=1', { token });
    if (items[0]) return items[0];
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the MCP call made no conversation');
}

export const scenarios = [
  {
    name: 'an MCP client talks to the coach; the person answers in the browser and the history says via MCP',
    async run(t) {
      const auth = await t.api.register(t.email('mcp'), 'Mika');
      const { token: pat } = await t.api.call('POST', '/api/auth/tokens', {
        token: auth.token,
        body: { name: 'laptop' },
      });
      const client = await mcpClient(t.base, pat);
      try {
        const { tools } = await client.listTools();
        assert.ok(
          tools.some((tool) => tool.name === 'tidying'),
          'the coach is a tool',
        );

        // The client declared no elicitation: the coach's question waits for the person.
        const call = client.callTool(
          { name: 'tidying', arguments: { message: 'My desk is covered in mugs and papers' } },
          undefined,
          { timeout: 120_000, resetTimeoutOnProgress: true },
        );
        const conversation = await newestConversation(t, auth.token);

        const page = await t.signedInPage(auth, { phone: true });
        await page.goto(`/c/${conversation.id}`);
        // Their words, sent from the MCP client, are theirs in the chat; the question is a card.
        await page.locator('.bubble--user', { hasText: 'My desk is covered in mugs and papers' }).waitFor();
        const card = page.getByRole('group', { name: /What do you need to DO in this space/ });
        await card.waitFor({ timeout: 45_000 });
        await t.shot(page, 'mcp-question-in-browser');
        await card
          .getByRole('button', { name: /working/i })
          .first()
          .click();
        // The first thing named comes next, as a card in the browser too.
        const mugs = page.locator('app-elicit-card', { hasText: 'What about the mugs?' });
        await mugs.waitFor({ timeout: 45_000 });
        await mugs.getByRole('button', { name: /Kitchen/ }).click();

        // The MCP call returns once the person answered, with the coach's replies and the state.
        const result = await call;
        const text = result.content
          .filter((c) => c.type === 'text')
          .map((c) => c.text)
          .join('\n');
        assert.ok(text.length > 0, 'the coach replied to the MCP client');
        assert.equal(result.structuredContent.conversationId, conversation.id);

        // The history tells the MCP client's move from the person's own tap.
        await page.getByRole('link', { name: 'Reflog' }).click();
        const viaMcp = page.locator('li.entry', { hasText: "via MCP, token 'laptop'" });
        await viaMcp.first().waitFor();
        assert.match(await viaMcp.first().innerText(), /You said .*My desk is covered/);
        await t.shot(page, 'mcp-history');
      } finally {
        await client.close();
      }
    },
  },
];

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/experimental/tasks/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ReflogPage } from '@sweatpants/domain';
import { conversation, firstAnswer, OPENING, PHOTO, until } from '../support/flows';
import { useApiPair } from '../support/api-pair';
import { mcpClient, textsOf } from '../support/mcp-client';
import { call, register, type TestApi } from '../support/test-api';

/** Long enough for a turn on a busy machine; a hang still fails. */
const LONG_MS = 30_000;

/**
 * The MCP Tasks extension: a client that can runs a talk to an agent as a task, answered at once,
 * and asks after it. While the agent waits for the person the task is `input_required` and the
 * question waits in the person's own clients; once they answer, the task completes with the
 * call's result. The task is asked after on another api process than the one that runs it, and a
 * client's tasks/cancel stops the turn as Stop does.
 */
describe('a talk to an agent as an MCP task', () => {
  const clients: Client[] = [];
  // Before the pair's own: the clients' streams are closed before the apis stop.
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
  }, LONG_MS);
  const pair = useApiPair('api_mcp_tasks');

  /** The person, their session (for their own clients) and a token named 'laptop' for the MCP client. */
  async function person(name: string) {
    const { token: session } = await register(pair.a, name);
    const made = await call<{ token: string }>(pair.a, 'POST', '/api/auth/tokens', {
      token: session,
      body: { name: 'laptop' },
    });
    return { session, token: made.body.token };
  }

  const client = async (api: TestApi, token: string, sessionId?: string) => {
    const c = await mcpClient(api, token, {}, sessionId);
    clients.push(c);
    return c;
  };

  /** Starts the coach's turn as a task; answers the task's id. */
  async function startTask(c: Client): Promise<string> {
    const created = await c.request(
      {
        method: 'tools/call',
        params: {
          name: 'tidying',
          arguments: { message: OPENING, photos: [PHOTO] },
          task: { ttl: 600_000 },
        },
      },
      CreateTaskResultSchema,
    );
    expect(created.task).toMatchObject({ status: 'working' });
    return created.task.taskId;
  }

  const statusOf = async (c: Client, taskId: string) => (await c.experimental.tasks.getTask(taskId)).status;
  const untilStatus = (c: Client, taskId: string, status: string) =>
    until(
      () => statusOf(c, taskId),
      (now) => now === status,
    );
  const newest = async (session: string) =>
    (await call<{ items: { id: string }[] }>(pair.a, 'GET', '/api/conversations?limit=1', { token: session }))
      .body.items[0]!.id;

  it(
    'is input_required while the question waits for the person, then completes with the replies, asked after on either process',
    async () => {
      const { session, token } = await person('tasks');
      const onA = await client(pair.a, token);
      const taskId = await startTask(onA);

      // The same session asked after on the other process: it sees the task, waiting on the person.
      const sessionId = (onA.transport as { sessionId?: string }).sessionId;
      const onB = await client(pair.b, token, sessionId);
      await untilStatus(onB, taskId, 'input_required');
      const task = await onB.experimental.tasks.getTask(taskId);
      expect(task.statusMessage).toMatch(/^waiting for the person to answer: /);

      // The person answers in their own client (here over HTTP, on the other process), each
      // question the turn asks, until the task is done.
      const id = await newest(session);
      const answer = async (): Promise<string> => {
        const waiting = await conversation(pair.b, session, id);
        const question = waiting.pendingElicit;
        if (waiting.status === 'waiting' && question && question.type !== 'chat') {
          const path = `/api/conversations/${id}/elicits/${question.elicitId}/response`;
          await call(pair.b, 'POST', path, { token: session, body: firstAnswer(question) });
        }
        return statusOf(onA, taskId);
      };
      expect(await until(answer, (now) => now === 'completed')).toBe('completed');
      const result = await onB.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(textsOf(result).join('\n')).not.toBe('');
      expect(result.structuredContent).toMatchObject({ conversationId: id });
      // The task is this session's: listed there.
      const { tasks } = await onA.experimental.tasks.listTasks();
      expect(tasks.map((t) => t.taskId)).toContain(taskId);
    },
    LONG_MS * 2,
  );

  it(
    "a client's tasks/cancel stops the turn as Stop does, and the reflog says it came via MCP",
    async () => {
      const { session, token } = await person('cancel');
      const c = await client(pair.a, token);
      const taskId = await startTask(c);
      await untilStatus(c, taskId, 'input_required');
      const id = await newest(session);

      await c.experimental.tasks.cancelTask(taskId);
      expect(await statusOf(c, taskId)).toBe('cancelled');
      const entries = await until(
        async () =>
          (
            await call<ReflogPage>(pair.a, 'GET', `/api/conversations/${id}/reflog?limit=50`, {
              token: session,
            })
          ).body.entries,
        (list) => list.some((e) => e.action === 'cancel'),
      );
      expect(entries.find((e) => e.action === 'cancel')?.message).toMatch(/via MCP, token 'laptop'/);
      // Nothing waits any more: the question was withdrawn with the turn.
      const after = await conversation(pair.a, session, id);
      expect(after.pendingElicit?.type ?? 'chat').toBe('chat');
    },
    LONG_MS * 2,
  );
});

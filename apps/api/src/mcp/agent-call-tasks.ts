import { Injectable, Logger } from '@nestjs/common';
import type { CreateTaskResult } from '@modelcontextprotocol/sdk/experimental/tasks/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitRequest } from '@sweatpants/domain';
import type { CallObserver, ToolExtra } from './agent-calls';
import { TASK_POLL_MS } from './mcp-task-store';

/** How often a running task looks whether its client cancelled it (tasks/cancel, on any process). */
const CANCEL_CHECK_MS = 1_000;

type TaskStore = NonNullable<ToolExtra['taskStore']>;

/**
 * A tool call the client asked to run as a task (the MCP Tasks extension): answered at once with
 * the task, then run here as any call runs, the task saying how it goes. While the agent waits
 * for the person the task is `input_required` (the question waits in their own clients, as for a
 * client that cannot be asked); when the turn settles it is `completed` with the call's result. A
 * client's tasks/cancel (its status `cancelled`, seen here within CANCEL_CHECK_MS) stops the turn
 * as Stop does. The task lives in McpTaskStore, so the client may ask after it on any process.
 */
@Injectable()
export class AgentCallTasks {
  private readonly logger = new Logger('Mcp');

  /** Makes the task for `extra`'s request and runs `call` under it; answers the task. */
  async start(
    extra: ToolExtra,
    call: (extra: ToolExtra, observer: CallObserver) => Promise<CallToolResult>,
  ): Promise<CreateTaskResult> {
    const store = extra.taskStore as TaskStore;
    const task = await store.createTask({
      ...(extra.taskRequestedTtl !== undefined ? { ttl: extra.taskRequestedTtl } : {}),
      pollInterval: TASK_POLL_MS,
    });
    const { taskId } = task;
    const cancelled = new AbortController();
    // The request that made the task is answered now: the call runs on without its signal or its
    // progress token, and what it waits on is the task's status.
    const { _meta: _answered, ...rest } = extra;
    const running: ToolExtra = { ...rest, signal: cancelled.signal };
    let waiting: string | null = null;
    const observer: CallObserver = {
      waitingOn: (question: ElicitRequest | null) => {
        const next = question?.elicitId ?? null;
        if (next === waiting) return;
        waiting = next;
        void (
          question
            ? store.updateTaskStatus(
                taskId,
                'input_required',
                `waiting for the person to answer: ${question.message}`,
              )
            : store.updateTaskStatus(taskId, 'working')
        ).catch(() => undefined);
      },
    };
    const watcher = setInterval(() => {
      store
        .getTask(taskId)
        .then((now) => {
          if (now?.status === 'cancelled') cancelled.abort();
        })
        .catch(() => undefined);
    }, CANCEL_CHECK_MS);
    void call(running, observer)
      .then((result) => store.storeTaskResult(taskId, 'completed', result))
      .catch((error: unknown) => {
        if (cancelled.signal.aborted) return;
        const text = error instanceof Error ? error.message : String(error);
        return store.storeTaskResult(taskId, 'failed', { content: [{ type: 'text', text }], isError: true });
      })
      .catch((error: unknown) => this.logger.warn(`MCP task ${taskId}: ${String(error)}`))
      .finally(() => clearInterval(watcher));
    return { task };
  }
}

import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  InMemoryTaskStore,
  isTerminal,
  type CreateTaskOptions,
  type TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/index.js';
import type { Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { Redis } from 'ioredis';
import { ClusterRedis } from '../redis/cluster-redis';

/** How long a task and its result are kept when the client asks for no ttl of its own. */
const DEFAULT_TTL_MS = 24 * 60 * 60_000;
/** How often a client is told to ask after a task (it may ask sooner or later). */
export const TASK_POLL_MS = 1_000;
/** Tasks in a page of tasks/list. */
const PAGE_SIZE = 10;

/** A task as it is kept: its state, the session it belongs to, and its result once it has one. */
interface Kept {
  task: Task;
  sessionId: string | undefined;
  result?: Result;
}

/**
 * Where MCP tasks are kept (the Tasks extension: a long tool call answered with a task the client
 * asks after). A task is made on the process whose call runs it, and `tasks/get` or `tasks/result`
 * may land on any other: with Redis every process reads the same tasks; without it (one process)
 * they are in its memory, as the SDK keeps them. A task is its session's alone.
 */
@Injectable()
export class McpTaskStore implements TaskStore {
  private readonly store: TaskStore;

  constructor(cluster: ClusterRedis) {
    this.store = cluster.client
      ? new RedisTaskStore(cluster.client, (...parts) => cluster.key('mcp', ...parts))
      : new InMemoryTaskStore();
  }

  createTask(params: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string) {
    return this.store.createTask(params, requestId, request, sessionId);
  }
  getTask(taskId: string, sessionId?: string) {
    return this.store.getTask(taskId, sessionId);
  }
  storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string) {
    return this.store.storeTaskResult(taskId, status, result, sessionId);
  }
  getTaskResult(taskId: string, sessionId?: string) {
    return this.store.getTaskResult(taskId, sessionId);
  }
  updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string) {
    return this.store.updateTaskStatus(taskId, status, statusMessage, sessionId);
  }
  listTasks(cursor?: string, sessionId?: string) {
    return this.store.listTasks(cursor, sessionId);
  }
}

/**
 * The SDK's TaskStore contract on Redis: each task a key that expires with its ttl, each
 * session's tasks a sorted set by creation. Writes read, check and write back; a task is written
 * by the one call that runs it and by a client's cancel, whose race the terminal check settles.
 */
class RedisTaskStore implements TaskStore {
  constructor(
    private readonly redis: Redis,
    /** a key under the deployment's REDIS_PREFIX */
    private readonly key: (...parts: string[]) => string,
  ) {}

  async createTask(params: CreateTaskOptions, _requestId: RequestId, _request: Request, sessionId?: string) {
    const now = new Date().toISOString();
    const task: Task = {
      taskId: randomBytes(16).toString('hex'),
      status: 'working',
      ttl: params.ttl ?? DEFAULT_TTL_MS,
      createdAt: now,
      lastUpdatedAt: now,
      pollInterval: params.pollInterval ?? TASK_POLL_MS,
    };
    await this.write({ task, sessionId });
    if (sessionId !== undefined) {
      const list = this.key('tasks', sessionId);
      await this.redis.zadd(list, Date.now(), task.taskId);
      await this.redis.pexpire(list, ttlOf(task));
    }
    return task;
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    return (await this.read(taskId, sessionId))?.task ?? null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string) {
    const kept = await this.must(taskId, sessionId);
    if (isTerminal(kept.task.status))
      throw new Error(`Cannot store result for task ${taskId} in terminal status '${kept.task.status}'`);
    await this.write({ ...kept, result, task: touched(kept.task, status) });
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const kept = await this.must(taskId, sessionId);
    if (!kept.result) throw new Error(`Task ${taskId} has no result stored`);
    return kept.result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string) {
    const kept = await this.must(taskId, sessionId);
    if (isTerminal(kept.task.status))
      throw new Error(`Cannot update task ${taskId} from terminal status '${kept.task.status}'`);
    const task = touched(kept.task, status);
    if (statusMessage) task.statusMessage = statusMessage;
    else delete task.statusMessage;
    await this.write({ ...kept, task });
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    if (sessionId === undefined) return { tasks: [] };
    const ids = await this.redis.zrange(this.key('tasks', sessionId), 0, -1);
    const start = cursor === undefined ? 0 : ids.indexOf(cursor) + 1;
    if (cursor !== undefined && start === 0) throw new Error(`Invalid cursor: ${cursor}`);
    const page = ids.slice(start, start + PAGE_SIZE);
    const tasks = (await Promise.all(page.map((id) => this.getTask(id, sessionId)))).filter(
      (t): t is Task => t !== null,
    );
    return start + PAGE_SIZE < ids.length ? { tasks, nextCursor: page.at(-1) as string } : { tasks };
  }

  private async read(taskId: string, sessionId: string | undefined): Promise<Kept | null> {
    const raw = await this.redis.get(this.key('task', taskId));
    if (raw === null) return null;
    const kept = JSON.parse(raw) as Kept;
    // Another session's task is no task at all to this one.
    if (sessionId !== undefined && kept.sessionId !== undefined && kept.sessionId !== sessionId) return null;
    return kept;
  }

  private async must(taskId: string, sessionId: string | undefined): Promise<Kept> {
    const kept = await this.read(taskId, sessionId);
    if (!kept) throw new Error(`Task with ID ${taskId} not found`);
    return kept;
  }

  private async write(kept: Kept): Promise<void> {
    await this.redis.set(this.key('task', kept.task.taskId), JSON.stringify(kept), 'PX', ttlOf(kept.task));
  }
}

const ttlOf = (task: Task) => task.ttl ?? DEFAULT_TTL_MS;

function touched(task: Task, status: Task['status']): Task {
  return { ...task, status, lastUpdatedAt: new Date().toISOString() };
}

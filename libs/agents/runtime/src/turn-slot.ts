import { createScope, type Operation, type Scope, type Task } from 'effection';

/** How long `close` waits for a write under way (a write on a live connection takes milliseconds). */
const CLOSE_WAIT_MS = 5_000;

/**
 * The one turn a runner may have under way, run as a task of an effection scope of the runner's
 * own: started, ended (freeing the slot), and waited for by whoever needs the runner idle. Closing
 * the slot halts whatever runs in it, for good: the runner closed.
 */
export class TurnSlot {
  private readonly scope: Scope;
  private readonly destroyScope: () => Promise<void>;
  private current: Task<void> | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor() {
    const [scope, destroy] = createScope();
    this.scope = scope;
    this.destroyScope = async () => {
      await destroy();
    };
  }

  /** The turn under way, if any. */
  get task(): Task<void> | undefined {
    return this.current;
  }

  /** Runs `turn` as the turn under way. */
  run(turn: () => Operation<void>): Task<void> {
    const task = this.scope.run(turn);
    this.current = task;
    return task;
  }

  /** `task` ended: frees the slot if it still holds it. False when another turn (or none) holds it. */
  free(task: Task<void>): boolean {
    if (this.current !== task) return false;
    this.current = undefined;
    return true;
  }

  /**
   * Resolves at once when no turn is under way; else when the runner says nothing more will run
   * (`wake`): a turn that ended and took the next queued message is not idle yet.
   */
  whenIdle(): Promise<void> {
    if (!this.current) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Nothing more runs: whoever waits in `whenIdle` hears it. */
  wake(): void {
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /**
   * Halts what runs, for good (the scope ends), then waits while `landing` (a write the turn had
   * under way) lands or fails, CLOSE_WAIT_MS at most.
   */
  async close(landing?: Promise<unknown>): Promise<void> {
    await this.destroyScope();
    if (!landing) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([landing, waited]);
    clearTimeout(timer);
  }

  /** After `close`: the slot is empty and its waiters woken. */
  release(): void {
    this.current = undefined;
    this.wake();
  }
}

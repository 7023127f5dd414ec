/** The longest a Node timer waits (about 24.8 days): what the SDK is told, so only ours counts. */
export const LONGEST_TIMER_MS = 2_147_483_647;

/** A call to an MCP server took longer than its server's timeout allows. */
export class McpTimeoutError extends Error {
  override readonly name = 'McpTimeoutError';
}

/**
 * The time an MCP server has to answer a call: it runs while the server works, stops while the
 * person answers a question the server asked (a person may take days), and starts again in full
 * when they have answered or the server reports progress. `expired` rejects when it runs out.
 *
 * @example
 * const deadline = new McpDeadline(30_000, () => new McpTimeoutError('echo: no answer in 30 s'));
 * try {
 *   return await Promise.race([client.callTool(params), deadline.expired]);
 * } finally {
 *   deadline.stop();
 * }
 */
export class McpDeadline {
  readonly expired: Promise<never>;
  private timer: NodeJS.Timeout | undefined;
  private fail: (error: Error) => void = () => undefined;

  constructor(
    private readonly ms: number,
    private readonly error: () => Error,
  ) {
    this.expired = new Promise<never>((_, reject) => (this.fail = reject));
    // Nobody need listen: a call that ended first never looks.
    this.expired.catch(() => undefined);
    this.restart();
  }

  /** The full time again, from now. */
  restart(): void {
    this.stop();
    this.timer = setTimeout(() => this.fail(this.error()), this.ms);
  }

  /** No time runs until `restart`. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * Work asked for in bursts, run once per burst: `request()` runs it `settleMs` after the last
 * request, and at the latest `ceilingMs` after the first of the burst, so a burst that goes on
 * (an agent at work, answers tapped in quick succession) still runs it now and then.
 *
 * @example
 * const reload = new Coalesced(() => void refresh(), 150, 1000);
 * socket.on('head', () => reload.request());
 */
export class Coalesced {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** when the pending run is due at the latest: the first request of its burst + the ceiling */
  private due: number | null = null;

  constructor(
    private readonly work: () => void,
    private readonly settleMs: number,
    private readonly ceilingMs: number,
  ) {}

  request(): void {
    const now = Date.now();
    this.due ??= now + this.ceilingMs;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.cancel();
        this.work();
      },
      Math.max(0, Math.min(this.settleMs, this.due - now)),
    );
  }

  /** Forgets a pending run. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.due = null;
  }
}

import { TestBed } from '@angular/core/testing';
import type { GcRun } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { GcPanelComponent } from './gc-panel.component';
import { AN_ADMIN } from '../../testing/signed-in';

const run = (id: string, over: Partial<GcRun> = {}): GcRun => ({
  id,
  requestedBy: 'schedule',
  dryRun: false,
  policy: { reachableDays: 90, unreachableDays: 30 },
  startedAt: '2026-11-24T03:00:00.000Z',
  finishedAt: '2026-11-24T03:00:02.000Z',
  conversations: 2,
  reflogEntries: 3,
  nodes: 5,
  error: null,
  ...over,
});

async function render(pages: GcRun[][]) {
  let page = 0;
  const api = {
    gcRuns: jest.fn().mockImplementation(async () => ({ items: pages[Math.min(page++, pages.length - 1)] })),
    runGc: jest.fn().mockResolvedValue({ jobId: 'gc.1' }),
  };
  TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: api }] });
  TestBed.inject(SessionService).start({
    token: 't',
    user: AN_ADMIN,
  });
  const fixture = TestBed.createComponent(GcPanelComponent);
  const settle = async (ms = 0) => {
    await jest.advanceTimersByTimeAsync(ms);
    fixture.detectChanges();
  };
  await settle();
  const element = fixture.nativeElement as HTMLElement;
  const lines = () =>
    Array.from(element.querySelectorAll('.runs li')).map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
  const button = (text: string) =>
    Array.from(element.querySelectorAll('button')).find((b) => b.textContent?.trim() === text)!;
  return { api, settle, lines, button, element };
}

describe('GcPanelComponent', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-24T12:00:00.000Z') }));
  afterEach(() => jest.useRealTimers());

  it('lists the latest clean-ups in words, with who started them and the policy', async () => {
    const { lines } = await render([[run('r2', { requestedBy: 'admin-1', dryRun: true }), run('r1')]]);
    expect(lines()).toEqual([
      expect.stringMatching(
        /^Dry run: Would remove 3 old history entries and 5 unreachable messages and steps across 2 conversations ?(Today|Yesterday) \d\d:\d\d · run by you · keeps history 90 days, discarded branches 30$/,
      ),
      expect.stringMatching(/^Removed 3 old history entries .* · on schedule · /),
    ]);
  });

  it('runs one now, waits for its report, and says when there is none yet', async () => {
    const { api, settle, lines, button, element } = await render([
      [],
      [],
      [run('r1', { requestedBy: 'admin-1', finishedAt: null })],
      [run('r1', { requestedBy: 'admin-1', nodes: 0, reflogEntries: 0 })],
    ]);
    expect(element.textContent).toContain('No clean-up has run yet.');
    button('Clean up now').click();
    await settle();
    expect(api.runGc).toHaveBeenCalledWith({ dryRun: false });
    expect(button('Clean up now').disabled).toBe(true);
    await settle(1_000);
    expect(lines()[0]).toMatch(/^Running…/);
    await settle(1_000);
    expect(lines()[0]).toMatch(/^Nothing to remove in 2 conversations/);
    expect(button('Clean up now').disabled).toBe(false);
    await settle(5_000);
    expect(api.gcRuns).toHaveBeenCalledTimes(4);
  });
});

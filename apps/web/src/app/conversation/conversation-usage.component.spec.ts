import { provideHttpClient } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import type { ConversationUsage } from '@sweatpants/domain';

import { ApiError } from '../core/api-error';
import { ConversationUsageComponent } from './conversation-usage.component';
import { ApiService } from '../core/api.service';

const ID = 'c0ffee00-0000-4000-8000-000000000001';
const offline: ConversationUsage = {
  calls: 3,
  inputTokens: 2_480,
  cacheWriteTokens: 0,
  cacheReadTokens: 0,
  outputTokens: 312,
};

async function render(answer: () => Promise<ConversationUsage>, inputs: Record<string, unknown> = {}) {
  const api = { adminUsage: jest.fn().mockImplementation(answer) };
  TestBed.configureTestingModule({ providers: [{ provide: ApiService, useValue: api }] });
  const fixture = TestBed.createComponent(ConversationUsageComponent);
  fixture.componentRef.setInput('conversationId', ID);
  for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
  await fixture.whenStable();
  fixture.detectChanges();
  const element = fixture.nativeElement as HTMLElement;
  // what a person reads, a line per heading or paragraph
  const text = () =>
    Array.from(element.querySelectorAll('h2, p'), (e) => e.textContent!.replace(/\s+/g, ' ').trim());
  return { api, fixture, element, text };
}

describe('ConversationUsageComponent', () => {
  it('says what the conversation’s model calls cost, under its title', async () => {
    const { api, element, text } = await render(
      async () => ({
        ...offline,
        cacheReadTokens: 6_020,
        cacheWriteTokens: 1_200,
      }),
      { title: 'Attic', model: 'claude' },
    );
    expect(api.adminUsage).toHaveBeenCalledWith(ID);
    expect(element.querySelector('section')!.getAttribute('aria-label')).toBe('Model usage of “Attic”');
    expect(text()).toEqual([
      'Model usage of “Attic”',
      '3 model calls · 9,700 tokens in (6,020 read from the cache, 1,200 written to it) · 312 out',
    ]);
  });

  it('says the offline model’s numbers are estimates and were not billed', async () => {
    const { text } = await render(async () => offline, { model: 'offline' });
    expect(text()).toEqual([
      'Model usage',
      '3 model calls · 2,480 tokens in · 312 out',
      'Estimated: the offline model answered, not Claude, so nothing was billed.',
    ]);
  });

  it('shows nothing for an id that names no conversation, and why when the read fails', async () => {
    const missing = await render(async () => {
      throw new ApiError({ code: 'not_found', message: 'no such conversation' }, 404);
    });
    expect(missing.text()).toEqual([]);
    TestBed.resetTestingModule();
    const failed = await render(async () => {
      throw new ApiError({ code: 'internal', message: 'The server answered 502 Bad Gateway' }, 502);
    });
    expect(failed.element.querySelector('[role="alert"]')!.textContent!.trim()).toBe(
      'Could not read what its model calls cost. The server answered 502 Bad Gateway',
    );
  });

  it('reads it again when the page searches again, showing the old numbers until the new come', async () => {
    let later: (usage: ConversationUsage) => void = () => undefined;
    const { api, fixture, text } = await render(async () => offline, { reread: 1 });
    api.adminUsage.mockImplementation(() => new Promise<ConversationUsage>((resolve) => (later = resolve)));
    fixture.componentRef.setInput('reread', 2);
    fixture.detectChanges();
    expect(api.adminUsage).toHaveBeenCalledTimes(2);
    expect(text()[1]).toBe('3 model calls · 2,480 tokens in · 312 out');
    later({ ...offline, calls: 5, outputTokens: 1_020 });
    await fixture.whenStable();
    fixture.detectChanges();
    expect(text()[1]).toBe('5 model calls · 2,480 tokens in · 1,020 out');
  });
});

describe('ApiService.adminUsage', () => {
  it('asks the admin route for the conversation’s usage', async () => {
    TestBed.configureTestingModule({ providers: [provideHttpClient(), provideHttpClientTesting()] });
    const answer = TestBed.inject(ApiService).adminUsage(ID);
    TestBed.inject(HttpTestingController).expectOne(`/api/admin/conversations/${ID}/usage`).flush(offline);
    await expect(answer).resolves.toEqual(offline);
  });
});

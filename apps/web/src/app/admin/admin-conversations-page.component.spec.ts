import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import type { ListedConversation } from '@sweatpants/domain';

import { ApiService } from '../core/api.service';
import { SessionService } from '../core/session.service';
import { ConversationArchiveApi } from '../conversations/conversation-archive-api';
import { AdminConversationsPageComponent } from './admin-conversations-page.component';
import { AN_ADMIN } from '../../testing/signed-in';

const listed = (id: string, title: string, archivedAt: string | null): ListedConversation => ({
  id,
  agent: 'tidying',
  title,
  ownerId: 'u-2',
  head: 'h',
  status: 'idle',
  pendingElicit: null,
  pendingElicits: [],
  model: 'offline',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T11:00:00.000Z',
  archivedAt,
});

describe('AdminConversationsPageComponent', () => {
  it('marks a conversation its owner archived as Archived, and no other', async () => {
    const page = {
      items: [listed('c-1', 'The shed', '2026-11-25T09:30:00.000Z'), listed('c-2', 'The desk', null)],
      next: null,
    };
    const archiveApi = { everyones: jest.fn().mockResolvedValue(page) };
    // The page's other reads (gc runs, fsck) are not this spec's.
    const api = {
      adminConversations: jest.fn().mockResolvedValue(page),
      gcRuns: jest.fn().mockResolvedValue({ items: [] }),
    };
    TestBed.configureTestingModule({
      providers: [
        provideRouter([]),
        { provide: ApiService, useValue: api },
        { provide: ConversationArchiveApi, useValue: archiveApi },
      ],
    });
    TestBed.inject(SessionService).start({
      token: 't',
      user: AN_ADMIN,
    });
    const fixture = TestBed.createComponent(AdminConversationsPageComponent);
    await fixture.whenStable();
    fixture.detectChanges();
    const cards = Array.from((fixture.nativeElement as HTMLElement).querySelectorAll('.list .card'));
    const marked = cards.map((card) => [
      card.querySelector('a')?.textContent?.trim(),
      card.querySelector('.archived')?.textContent?.trim() ?? null,
    ]);
    expect(marked).toEqual([
      ['The shed', 'Archived'],
      ['The desk', null],
    ]);
    expect(cards[0]?.querySelector('.archived')?.getAttribute('title')).toMatch(
      /^Archived by its owner Nov 25, 2026/,
    );
  });
});

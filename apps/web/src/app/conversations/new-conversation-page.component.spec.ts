import { Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';

import { ApiError } from '../core/api-error';
import { ConversationStarter } from './conversation-starter';
import { NewConversationPageComponent } from './new-conversation-page.component';
import { useAgents } from './agents-fixture';

@Component({ template: '' })
class BlankComponent {}

async function render() {
  const starter = { start: jest.fn(), starting: () => false };
  TestBed.configureTestingModule({
    providers: [
      provideRouter([{ path: 'c/:id', component: BlankComponent }]),
      { provide: ConversationStarter, useValue: starter },
    ],
  });
  useAgents();
  const fixture = TestBed.createComponent(NewConversationPageComponent);
  fixture.detectChanges();
  await fixture.whenStable();
  const element = fixture.nativeElement as HTMLElement;
  const button = (name: string) =>
    Array.from(element.querySelectorAll<HTMLButtonElement>('button')).find((b) =>
      b.textContent?.includes(name),
    )!;
  const write = (text: string) => {
    const box = element.querySelector('textarea')!;
    box.value = text;
    box.dispatchEvent(new Event('input'));
    fixture.detectChanges();
  };
  const settle = async () => {
    await fixture.whenStable();
    fixture.detectChanges();
  };
  return { fixture, element, starter, button, write, settle };
}

describe('NewConversationPageComponent', () => {
  it('offers both agents, the chosen one introducing itself above the composer', async () => {
    const { fixture, element, button } = await render();
    expect(button('Tidying coach').getAttribute('aria-pressed')).toBe('true');
    expect(element.querySelector('.intro')?.textContent).toContain('Send a photo');
    button('Concierge').click();
    fixture.detectChanges();
    expect(button('Concierge').getAttribute('aria-pressed')).toBe('true');
    expect(button('Tidying coach').getAttribute('aria-pressed')).toBe('false');
    expect(element.querySelector('.intro')?.textContent).toContain('what we should sort');
    expect(element.querySelector('textarea')?.placeholder).toBe('Review my quarantined items');
  });

  it('starts the conversation with the first message, then opens it', async () => {
    const { starter, button, write, settle } = await render();
    starter.start.mockResolvedValue({ id: 'c-9' });
    button('Concierge').click();
    write('Sort the inbox');
    button('Send').click();
    await settle();
    expect(starter.start).toHaveBeenCalledWith('concierge', { text: 'Sort the inbox' });
    expect(TestBed.inject(Router).url).toBe('/c/c-9');
  });

  it('keeps the words and says what went wrong when the start fails', async () => {
    const { element, starter, button, write, settle } = await render();
    starter.start.mockRejectedValue(new ApiError({ code: 'rate_limited', message: 'slow' }, 429));
    write('My desk is a mess');
    button('Send').click();
    await settle();
    expect(element.querySelector('[role=alert]')?.textContent).toContain('Too many tries');
    expect(element.querySelector('textarea')?.value).toBe('My desk is a mess');
    expect(TestBed.inject(Router).url).toBe('/');
  });
});

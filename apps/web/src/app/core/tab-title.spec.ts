import { Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { Title } from '@angular/platform-browser';
import { provideRouter, Router, TitleStrategy } from '@angular/router';

import { CONVERSATION_ROUTE, TabTitleStrategy } from './tab-title';

@Component({ template: '' })
class BlankComponent {}

const tabs = [
  { path: '', component: BlankComponent },
  { path: 'tree', title: 'Tree', component: BlankComponent },
];

function setup() {
  TestBed.configureTestingModule({
    providers: [
      provideRouter([
        { path: '', title: 'New conversation · Sweatpants', component: BlankComponent },
        { path: 'c/:id', data: { [CONVERSATION_ROUTE]: true }, children: tabs },
        { path: 'admin/c/:id', data: { admin: true, [CONVERSATION_ROUTE]: true }, children: tabs },
      ]),
      { provide: TitleStrategy, useExisting: TabTitleStrategy },
    ],
  });
  return {
    router: TestBed.inject(Router),
    strategy: TestBed.inject(TabTitleStrategy),
    title: () => TestBed.inject(Title).getTitle(),
  };
}

describe('TabTitleStrategy', () => {
  it("names a conversation's tabs by its title, and follows a rename", async () => {
    const { router, strategy, title } = setup();
    await router.navigateByUrl('/c/x');
    expect(title()).toBe('Conversation · Sweatpants');
    strategy.setConversationTitle('The hall closet');
    expect(title()).toBe('The hall closet · Sweatpants');
    await router.navigateByUrl('/c/x/tree');
    expect(title()).toBe('The hall closet · Tree · Sweatpants');
    strategy.setConversationTitle('Hall, spring');
    expect(title()).toBe('Hall, spring · Tree · Sweatpants');
  });

  it('says Audit on the admin views, and other pages keep their own title', async () => {
    const { router, strategy, title } = setup();
    await router.navigateByUrl('/admin/c/x/tree');
    strategy.setConversationTitle(null);
    expect(title()).toBe('Conversation · Tree · Audit · Sweatpants');
    strategy.setConversationTitle('Desk');
    await router.navigateByUrl('/');
    expect(title()).toBe('New conversation · Sweatpants');
  });
});

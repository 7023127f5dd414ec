import { inject, Injectable } from '@angular/core';
import { Title } from '@angular/platform-browser';
import { type ActivatedRouteSnapshot, type RouterStateSnapshot, TitleStrategy } from '@angular/router';

const PRODUCT = 'Sweatpants';

/** Route data marking a route that shows one conversation; its children's titles name the tab. */
export const CONVERSATION_ROUTE = 'conversationRoute';

/**
 * The browser tab's title. A page names itself through its route's `title`; a conversation is
 * named by its own title, which only its shell knows and which changes on a rename, so the shell
 * hands it over: "<title> · Tree · Sweatpants", "<title> · Audit · Sweatpants" for an admin.
 */
@Injectable({ providedIn: 'root' })
export class TabTitleStrategy extends TitleStrategy {
  private readonly title = inject(Title);
  private page: { routeTitle: string | undefined; conversation: boolean; admin: boolean } = {
    routeTitle: undefined,
    conversation: false,
    admin: false,
  };
  private conversationTitle: string | null = null;

  override updateTitle(snapshot: RouterStateSnapshot): void {
    const routes = primaryChain(snapshot.root);
    this.page = {
      routeTitle: this.buildTitle(snapshot),
      conversation: routes.some((route) => route.data[CONVERSATION_ROUTE] === true),
      admin: routes.some((route) => route.data['admin'] === true),
    };
    this.apply();
  }

  /** The open conversation's title (null while it loads, or once it is closed). */
  setConversationTitle(title: string | null): void {
    this.conversationTitle = title;
    this.apply();
  }

  private apply(): void {
    const { routeTitle, conversation, admin } = this.page;
    if (!conversation) {
      this.title.setTitle(routeTitle ?? PRODUCT);
      return;
    }
    const parts = [
      this.conversationTitle || 'Conversation',
      routeTitle,
      admin ? 'Audit' : undefined,
      PRODUCT,
    ];
    this.title.setTitle(parts.filter((part) => part).join(' · '));
  }
}

function primaryChain(root: ActivatedRouteSnapshot): ActivatedRouteSnapshot[] {
  const chain: ActivatedRouteSnapshot[] = [];
  for (let route: ActivatedRouteSnapshot | null = root; route; route = route.firstChild) chain.push(route);
  return chain;
}

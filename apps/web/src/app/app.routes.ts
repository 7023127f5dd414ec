import type { Routes } from '@angular/router';

import { SignInPageComponent } from './auth/sign-in-page.component';
import { adminGuard, signedInGuard } from './core/auth.guards';
import { ConversationListPageComponent } from './conversations/conversation-list-page.component';
import { StatusPageComponent } from './status/status-page.component';

/** The Chat / Tree / Reflog tabs, for the owner and (read-only) for an admin alike. */
const conversationTabs: Routes = [
  {
    path: '',
    loadComponent: () => import('./conversation/chat-page.component').then((m) => m.ChatPageComponent),
  },
  {
    path: 'tree',
    title: 'Tree · Sweatpants',
    loadComponent: () => import('./tree/tree-page.component').then((m) => m.TreePageComponent),
  },
  {
    path: 'reflog',
    title: 'Reflog · Sweatpants',
    loadComponent: () => import('./reflog/reflog-page.component').then((m) => m.ReflogPageComponent),
  },
];

const loadShell = () =>
  import('./conversation/conversation-shell.component').then((m) => m.ConversationShellComponent);

export const routes: Routes = [
  { path: 'sign-in', component: SignInPageComponent, title: 'Sign in · Sweatpants' },
  {
    path: 'sign-up',
    component: SignInPageComponent,
    title: 'Sign up · Sweatpants',
    data: { mode: 'sign-up' },
  },
  { path: 'status', component: StatusPageComponent, title: 'Status · Sweatpants' },
  { path: '', component: ConversationListPageComponent, canActivate: [signedInGuard], title: 'Sweatpants' },
  {
    path: 'c/:id',
    loadComponent: loadShell,
    canActivate: [signedInGuard],
    title: 'Conversation · Sweatpants',
    children: conversationTabs,
  },
  {
    path: 'admin',
    canActivate: [adminGuard],
    loadComponent: () =>
      import('./admin/admin-reflog-page.component').then((m) => m.AdminReflogPageComponent),
    title: 'Audit · Sweatpants',
  },
  {
    path: 'admin/conversations',
    canActivate: [adminGuard],
    loadComponent: () =>
      import('./admin/admin-conversations-page.component').then((m) => m.AdminConversationsPageComponent),
    title: 'Audit · Sweatpants',
  },
  {
    path: 'admin/c/:id',
    loadComponent: loadShell,
    canActivate: [adminGuard],
    data: { admin: true },
    title: 'Audit · Sweatpants',
    children: conversationTabs,
  },
  { path: '**', redirectTo: '' },
];

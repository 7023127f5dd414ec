import type { Routes } from '@angular/router';

import { SignInPageComponent } from './auth/sign-in-page.component';
import { adminGuard, signedInGuard } from './core/auth.guards';
import { CONVERSATION_ROUTE } from './core/tab-title';
import { StatusPageComponent } from './status/status-page.component';

/** Route data: the page fills the window below the top bar, which stays; the page scrolls inside. */
export const FILLS_WINDOW = 'fillsWindow';

/**
 * The Chat / Tree / Reflog tabs, for the owner and (read-only) for an admin alike. Their titles
 * are parts: TabTitleStrategy puts the conversation's own title before them.
 */
const conversationTabs: Routes = [
  {
    path: '',
    // The chat fills the window and scrolls in its own pane (AppComponent reads this).
    data: { [FILLS_WINDOW]: true },
    loadComponent: () => import('./conversation/chat-page.component').then((m) => m.ChatPageComponent),
  },
  {
    path: 'tree',
    title: 'Tree',
    loadComponent: () => import('./tree/tree-page.component').then((m) => m.TreePageComponent),
  },
  {
    path: 'reflog',
    title: 'Reflog',
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
  {
    path: 'forgot-password',
    loadComponent: () =>
      import('./auth/forgot-password-page.component').then((m) => m.ForgotPasswordPageComponent),
    title: 'Forgot password · Sweatpants',
  },
  {
    path: 'reset-password',
    loadComponent: () =>
      import('./auth/reset-password-page.component').then((m) => m.ResetPasswordPageComponent),
    title: 'Set a new password · Sweatpants',
  },
  {
    path: 'verify-email',
    loadComponent: () => import('./auth/verify-email-page.component').then((m) => m.VerifyEmailPageComponent),
    title: 'Confirm your email · Sweatpants',
  },
  { path: 'status', component: StatusPageComponent, title: 'Status · Sweatpants' },
  {
    path: '',
    loadComponent: () =>
      import('./conversations/new-conversation-page.component').then((m) => m.NewConversationPageComponent),
    canActivate: [signedInGuard],
    title: 'New conversation · Sweatpants',
  },
  {
    path: 'c/:id',
    loadComponent: loadShell,
    canActivate: [signedInGuard],
    data: { [CONVERSATION_ROUTE]: true },
    children: conversationTabs,
  },
  {
    path: 'account',
    canActivate: [signedInGuard],
    loadComponent: () => import('./account/account-page.component').then((m) => m.AccountPageComponent),
    title: 'Your account · Sweatpants',
  },
  {
    path: 'admin',
    canActivate: [adminGuard],
    loadComponent: () =>
      import('./admin/admin-reflog-page.component').then((m) => m.AdminReflogPageComponent),
    title: 'Audit · Sweatpants',
  },
  {
    path: 'admin/accounts',
    canActivate: [adminGuard],
    loadComponent: () =>
      import('./admin/admin-accounts-page.component').then((m) => m.AdminAccountsPageComponent),
    title: 'Audit: accounts · Sweatpants',
  },
  {
    path: 'admin/spend',
    canActivate: [adminGuard],
    loadComponent: () => import('./admin/admin-spend-page.component').then((m) => m.AdminSpendPageComponent),
    title: 'Spend · Sweatpants',
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
    data: { admin: true, [CONVERSATION_ROUTE]: true },
    children: [
      ...conversationTabs,
      {
        path: 'turns',
        title: 'Turns',
        loadComponent: () => import('./admin/turns-page.component').then((m) => m.TurnsPageComponent),
      },
    ],
  },
  { path: '**', redirectTo: '' },
];

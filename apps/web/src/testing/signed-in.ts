import { Component } from '@angular/core';
import type { User } from '@sweatpants/domain';

/** The person a spec signs in as (`SessionService.start({ token, user: A_USER })`). */
export const A_USER: User = {
  id: 'u-1',
  email: 'robin@example.com',
  displayName: 'Robin',
  role: 'user',
  emailVerified: true,
};

/** An admin a spec signs in as. */
export const AN_ADMIN: User = { ...A_USER, id: 'admin-1', role: 'admin' };

/** A route's page for specs that only check where the app navigated (`/sign-in`). */
@Component({ template: '' })
export class BlankComponent {}

import type { Routes } from '@angular/router';

import { StatusPageComponent } from './status/status-page.component';

export const routes: Routes = [
  { path: '', component: StatusPageComponent, title: 'Sweatpants' },
  { path: '**', redirectTo: '' },
];

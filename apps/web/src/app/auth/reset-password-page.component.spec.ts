import { TestBed } from '@angular/core/testing';
import { provideRouter } from '@angular/router';
import { RouterTestingHarness } from '@angular/router/testing';

import { ApiService } from '../core/api.service';
import { ResetPasswordPageComponent } from './reset-password-page.component';

async function open(url: string): Promise<HTMLElement> {
  TestBed.configureTestingModule({
    providers: [
      provideRouter([{ path: 'reset-password', component: ResetPasswordPageComponent }]),
      { provide: ApiService, useValue: {} },
    ],
  });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(url, ResetPasswordPageComponent);
  return harness.routeNativeElement as HTMLElement;
}

describe('ResetPasswordPageComponent', () => {
  it('asks for a new password from a reset link', async () => {
    const page = await open('/reset-password?token=abc');
    expect(page.querySelector('h1')?.textContent?.trim()).toBe('Set a new password');
    expect(page.querySelector('label span')?.textContent?.trim()).toBe('New password');
  });

  it('asks for a password, not a new one, from the link to an account that has none yet', async () => {
    const page = await open('/reset-password?token=abc&first=1');
    expect(page.querySelector('h1')?.textContent?.trim()).toBe('Set a password');
    expect(page.querySelector('label span')?.textContent?.trim()).toBe('Password');
  });
});

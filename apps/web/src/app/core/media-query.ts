import { BreakpointObserver } from '@angular/cdk/layout';
import { inject, type Signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { map } from 'rxjs';

/**
 * Whether the window matches a CSS media query, as a signal that follows resizes and turns (the
 * CDK's BreakpointObserver). Called where `inject` may be: a field of a component or a service.
 *
 * @example
 * protected readonly narrow = matchesMedia('(max-width: 30rem)');
 */
export function matchesMedia(query: string): Signal<boolean> {
  const breakpoints = inject(BreakpointObserver);
  return toSignal(breakpoints.observe(query).pipe(map((state) => state.matches)), {
    initialValue: breakpoints.isMatched(query),
  });
}

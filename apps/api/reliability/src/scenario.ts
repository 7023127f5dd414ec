import type { ClusterOptions, RunningCluster } from './support/cluster-handle';

/** A figure a scenario reports, printed as `name: value`. */
export type Figures = Record<string, string | number>;

/** How a scenario ended: held (its invariants all true) or not, with what it measured. */
export interface ScenarioOutcome {
  held: boolean;
  figures: Figures;
  /** why it did not hold, or what it could not check */
  notes: string[];
}

/** What a scenario gets to work with: clusters on the suite's private Redis, and a seed. */
export interface ScenarioContext {
  /** starts a cluster on a fresh database; the suite stops every cluster a scenario leaves running */
  startCluster(options?: ClusterOptions): Promise<RunningCluster>;
  /** the suite's own Redis (never the shared one on 6379), for scenarios that do not restart it */
  redisUrl: string;
  seed: number;
  /** prints a progress line under the scenario */
  log(message: string): void;
}

/** One reliability scenario of issue 7. */
export interface Scenario {
  id: number;
  name: string;
  run(context: ScenarioContext): Promise<ScenarioOutcome>;
}

/**
 * Thrown when a part the scenario needs has not landed yet (a route answers 404, an entry point is
 * missing): the scenario prints why and counts as not held.
 */
export class NotReady extends Error {
  override readonly name = 'NotReady';
}

/** Collects failed invariants so a scenario can report all of them, not only the first. */
export class Verdict {
  readonly notes: string[] = [];
  readonly figures: Figures = {};

  check(condition: boolean, failure: string): boolean {
    if (!condition) this.notes.push(failure);
    return condition;
  }

  figure(name: string, value: string | number): void {
    this.figures[name] = value;
  }

  outcome(): ScenarioOutcome {
    return { held: this.notes.length === 0, figures: this.figures, notes: this.notes };
  }
}

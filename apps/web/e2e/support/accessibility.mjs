// axe-core on the pages the suite visits: injected from the npm package (no network), run on the
// whole document, and judged by impact. Serious and critical violations fail the scenario; the
// rest are kept in the audit so the closing numbers show them too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const FAILING = new Set(['serious', 'critical']);

/** Runs axe on the page as it is now; answers the violations, each with its impact and targets. */
export async function axeViolations(page) {
  const loaded = await page.evaluate(() => typeof window.axe !== 'undefined');
  // Evaluated through the devtools protocol: the client's Content-Security-Policy (script-src
  // 'self') rightly refuses an injected <script>, and the check must not loosen it.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
}

/** Collects what axe said of every page and state, and says which ones fail. */
export class AccessibilityAudit {
  entries = [];

  /** Checks the page; throws when something serious or critical is wrong. */
  async check(page, where) {
    const violations = await axeViolations(page);
    this.entries.push({ where, url: new URL(page.url()).pathname, violations });
    const failing = violations.filter((v) => FAILING.has(v.impact));
    if (failing.length > 0) {
      const said = failing
        .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.join(', ')}`)
        .join('\n      ');
      throw new Error(`accessibility: ${where} has ${failing.length} serious violation(s):\n      ${said}`);
    }
  }

  summary() {
    const byImpact = {};
    for (const entry of this.entries)
      for (const v of entry.violations) byImpact[v.impact] = (byImpact[v.impact] ?? 0) + 1;
    return { checked: this.entries.length, byImpact };
  }
}

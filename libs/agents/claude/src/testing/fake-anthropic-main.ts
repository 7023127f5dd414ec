import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { startFakeAnthropic } from './fake-anthropic-server';
import { offlineResponder } from './offline-responder';

/**
 * The fake Anthropic API as a process of its own, for a browser scenario whose api runs as one too
 * (apps/web/e2e/support/fake-anthropic.mjs starts it):
 * `node -r @swc-node/register libs/agents/claude/src/testing/fake-anthropic-main.ts`. It answers
 * every request as the offline model's default rules would, with usage counted from the request as
 * the API counts it, prints its base URL as its first line, and stops on SIGTERM. With
 * FAKE_ANTHROPIC_FIRST_TOKEN_MS and FAKE_ANTHROPIC_TOKENS_PER_SECOND it runs on a model's clock, so
 * a scenario's model calls take time worth seeing.
 */
async function main(): Promise<void> {
  const firstTokenMs = Number(process.env['FAKE_ANTHROPIC_FIRST_TOKEN_MS'] ?? 0);
  const tokensPerSecond = Number(process.env['FAKE_ANTHROPIC_TOKENS_PER_SECOND'] ?? 0);
  const fake = await startFakeAnthropic(
    firstTokenMs > 0 && tokensPerSecond > 0 ? { timing: { firstTokenMs, tokensPerSecond } } : {},
  );
  fake.respond(offlineResponder(new OfflineModel()));
  process.stdout.write(`${fake.url}\n`);
  process.once('SIGTERM', () => {
    void fake.close().finally(() => process.exit(0));
  });
}

void main();

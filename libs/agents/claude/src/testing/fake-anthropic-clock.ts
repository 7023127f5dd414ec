import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';

import { estimateTokens } from './fake-anthropic-cache';
import type { SseStream } from './fake-anthropic-http';

/**
 * How fast the fake's model answers, as a real one does: the first token after `firstTokenMs`,
 * then `tokensPerSecond` (each delta waits for its estimated tokens). Errors answer at once.
 */
export interface FakeTiming {
  firstTokenMs: number;
  tokensPerSecond: number;
}

/** How long a whole reply of `outputTokens` takes on the model's clock (a reply not streamed). */
export function replyMs(timing: FakeTiming, outputTokens: number): number {
  return timing.firstTokenMs + (outputTokens / timing.tokensPerSecond) * 1000;
}

/**
 * Sends `events` on the model's clock: the first delta after the first-token time, each later
 * one after its estimated tokens at the model's rate. `pause` waits (false when the fake is
 * closing); false when the stream or the fake closed before the end.
 */
export async function paced(
  sse: SseStream,
  events: readonly RawMessageStreamEvent[],
  timing: FakeTiming,
  pause: (ms: number) => Promise<boolean>,
): Promise<boolean> {
  let first = true;
  for (const event of events) {
    if (event.type === 'content_block_delta') {
      const piece =
        event.delta.type === 'text_delta'
          ? event.delta.text
          : event.delta.type === 'input_json_delta'
            ? event.delta.partial_json
            : '';
      const ms = first ? timing.firstTokenMs : (estimateTokens(piece) / timing.tokensPerSecond) * 1000;
      first = false;
      if (!(await pause(ms)) || sse.closed) return false;
    }
    sse.send(event);
  }
  return true;
}

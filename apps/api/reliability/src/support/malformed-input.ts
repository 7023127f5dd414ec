import type { SeededRandom } from './seeded-random';

/** A malformed HTTP request: method, path, body text and content type. */
export interface MalformedRequest {
  method: string;
  path: string;
  body: string | undefined;
  contentType: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ROUTES = [
  '/api/auth/register',
  '/api/auth/login',
  '/api/auth/me',
  '/api/conversations',
  '/api/conversations/{id}',
  '/api/conversations/{id}/messages',
  '/api/conversations/{id}/elicits/{x}/response',
  '/api/conversations/{id}/path?at={x}',
  '/api/conversations/{id}/state?at={x}',
  '/api/conversations/{id}/tree?after={x}&limit={n}',
  '/api/conversations/{id}/nodes/{x}',
  '/api/conversations/{id}/rewind',
  '/api/conversations/{id}/nodes/{x}/edit',
  '/api/conversations/{id}/cancel',
  '/api/conversations/{id}/reflog?limit={n}&before={x}',
  '/api/conversations/{id}/recover',
  '/api/conversations/{id}/fork',
  '/api/conversations/{id}/compact',
  '/api/conversations/{id}/compactions',
  '/api/admin/reflog?since={x}&limit={n}',
  '/api/admin/fsck/{id}',
];
const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  '',
];
const WEIRD_STRINGS = [
  '',
  ' ',
  'HEAD~-1',
  'HEAD@{-5}',
  'HEAD~99999999999999999999',
  'HEAD@{1e9}',
  '../../etc/passwd',
  "' OR 1=1 --",
  '%00',
  '\u0000',
  '\ud800',
  '😀'.repeat(50),
  '__proto__',
  'constructor',
  'a'.repeat(300),
  '-1',
  'NaN',
  'null',
  '[]',
  '{}',
];

/** Random JSON-ish values: wrong types, deep nesting, prototype keys, huge and odd strings. */
export function randomValue(random: SeededRandom, depth = 0): unknown {
  const roll = random.int(0, depth > 3 ? 6 : 11);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, Number.MAX_SAFE_INTEGER]);
    case 3:
      return random.pick(WEIRD_STRINGS);
    case 4:
      return 'x'.repeat(random.int(0, 5) === 0 ? random.int(20_000, 200_000) : random.int(0, 40));
    case 5:
      return random.pick(['accept', 'decline', 'cancel', 'denied', 'other', 'chat', 'HEAD', 'HEAD~1']);
    case 6:
      return random.int(-5, 5);
    case 7:
      return Array.from({ length: random.int(0, 4) }, () => randomValue(random, depth + 1));
    case 8: {
      let nested: unknown = {};
      for (let i = random.int(50, 3_000); i > 0; i--) nested = random.chance(0.5) ? [nested] : { a: nested };
      return nested;
    }
    default: {
      const keys = [
        'conversationId',
        'elicitId',
        'action',
        'content',
        'text',
        'to',
        'expectedHead',
        'nodeId',
        'reflogId',
        'photos',
        'payload',
        'agent',
        'email',
        'password',
        'displayName',
        'title',
        'at',
        '__proto__',
        'constructor',
      ];
      const out: Record<string, unknown> = {};
      for (let i = random.int(0, 5); i > 0; i--) out[random.pick(keys)] = randomValue(random, depth + 1);
      return out;
    }
  }
}

/** A body that is not what the route wants: random JSON, broken JSON, or not JSON at all. */
function randomBody(random: SeededRandom): string | undefined {
  switch (random.int(0, 5)) {
    case 0:
      return undefined;
    case 1: {
      const json = JSON.stringify(randomValue(random)) ?? 'null';
      return json.slice(0, random.int(0, json.length));
    }
    case 2:
      return random.pick([
        '{',
        '{"a":',
        '[1,2',
        'nul',
        '\u0000\u0001',
        '{"__proto__":{"admin":true}}',
        '{"a":1}{"b":2}',
        '',
      ]);
    default:
      return JSON.stringify(randomValue(random)) ?? 'null';
  }
}

/** Percent-encodes; a lone surrogate, which has no UTF-8, goes out as the invalid bytes it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** One malformed HTTP request aimed at the routes of PROTOCOL.md, with ids from `ids` or made up. */
export function malformedRequest(random: SeededRandom, ids: readonly string[]): MalformedRequest {
  const fill = (template: string) =>
    template
      .replace('{id}', () =>
        encode(
          random.chance(0.6) && ids.length > 0 ? random.pick(ids) : String(random.pick(WEIRD_STRINGS) || 'x'),
        ),
      )
      .replace('{x}', () => encode(random.pick(WEIRD_STRINGS)))
      .replace('{n}', () => String(random.pick([-1, 0, 1e12, 'abc', 1.5, ''])));
  const method = random.chance(0.7) ? 'POST' : random.pick(METHODS);
  const body = randomBody(random);
  return {
    method,
    path: fill(random.pick(ROUTES)),
    // fetch refuses a body on GET and HEAD; a server never sees one there from a browser either
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
    contentType: random.pick(CONTENT_TYPES),
  };
}

/** One malformed Socket.IO event: a real or made-up event name and payloads that do not fit it. */
export function malformedFrame(
  random: SeededRandom,
  ids: readonly string[],
): { event: string; args: unknown[] } {
  const event = random.chance(0.85)
    ? random.pick([
        'conversation:join',
        'conversation:leave',
        'message:send',
        'elicit:response',
        'elicit:progress',
        'conversation:cancel',
        'conversation:rewind',
        'message:edit',
        'conversation:recover',
      ])
    : random.pick(['', 'ping', 'error', 'node', 'head', '__proto__', 'x'.repeat(1_000), 'admin:fsck']);
  const payload = randomValue(random);
  if (
    payload &&
    typeof payload === 'object' &&
    !Array.isArray(payload) &&
    ids.length > 0 &&
    random.chance(0.5)
  ) {
    (payload as Record<string, unknown>)['conversationId'] = random.pick(ids);
  }
  const args = random.chance(0.2) ? [payload, randomValue(random)] : [payload];
  return { event, args };
}

/** Bytes that do not decode as a Socket.IO packet. */
export function garbagePacket(random: SeededRandom): string {
  return random.pick([
    '42[',
    '4{"a":1}',
    '2',
    '45-["x"]',
    '4\u0000',
    '42["elicit:response",',
    '9999',
    '40/nope,',
  ]);
}

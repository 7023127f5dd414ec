/**
 * A browser's User-Agent header in plain words, for a person's list of sessions: "Chrome on
 * Linux", "Safari on iPhone", "Firefox on Windows". Only the names people know are told apart;
 * anything else is "a browser" or "an unknown system", and no header at all is "An unknown device".
 * The order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", iPadOS says "Mac".
 */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return 'An unknown device';
  const browser = firstMatch(userAgent, BROWSERS) ?? 'A browser';
  const system = firstMatch(userAgent, SYSTEMS) ?? 'an unknown system';
  return `${browser} on ${system}`;
}

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
  [/\bnode\b|\bundici\b/i, 'A script'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

function firstMatch(userAgent: string, table: readonly (readonly [RegExp, string])[]): string | undefined {
  return table.find(([pattern]) => pattern.test(userAgent))?.[1];
}

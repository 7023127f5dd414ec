import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * Seed 004 (../shared/seeds/004_*.txt) as written compiles against this runtime: each fenced ts
 * block is written to a file of its own with what it uses but does not declare (its imports, and
 * the helpers the seed leaves to the reader, such as `fetchWeather`), and the files are typechecked
 * under strict TypeScript with the workspace's path aliases. The seed's packages `@sweatpants/core`
 * and `@sweatpants/agent` are this runtime's author entry point. A change to the runtime that
 * breaks a snippet fails here.
 */

const ROOT = resolve(__dirname, '../../../..');
const SEEDS = resolve(ROOT, '../shared/seeds');

/** How one snippet is compiled, in the seed's order; `starts` pins it to the seed's text. */
interface Snippet {
  starts: string;
  /** imports and the seed's helpers it uses without declaring them */
  prelude?: string;
  /** statements with `yield*` at the top: compiled as the body of an operation */
  wrap?: true;
  /** appended, for later snippets to import (the Location protocol the others use) */
  exports?: string;
  /** not compiled, and why */
  skipped?: string;
  /** compiled with this one change to the seed's text, and why */
  patch?: { from: string; to: string; why: string };
}

const RUNTIME = '@sweatpants/agent-runtime';
const LOCATION = `import { LocationProtocol } from './snippet-08';`;

const SNIPPETS: Snippet[] = [
  {
    starts: 'import { main } from "effection";',
    skipped:
      'the program: here the api and the worker are the server, run the agents their catalog lists (exposeOverApi) and build the model; the runtime has no createServer, useConfig or useModel to invent for it',
  },
  {
    starts: 'const Chat = createAgent({',
    prelude: `import { createAgent, createTool } from '${RUNTIME}';\nimport * as z from 'zod';`,
  },
  {
    starts: 'const Chat = createAgent({',
    prelude: `import { createAgent, createTool, notify, Ok, sample } from '${RUNTIME}';
import * as z from 'zod';
const Flight = createAgent({
  search: createTool('search')
    .parameter(z.object({ destination: z.string(), date: z.string() }))
    .execute(function* ({ destination, date }) {
      return Ok({ flights: [{ id: 'FL001', destination, date }] });
    }),
});
declare const destination: string;
declare const date: string;`,
  },
  {
    starts: 'export const { bookFlight } = Chat.tools;',
    prelude: `import { createAgent, createTool, Ok } from '${RUNTIME}';
import * as z from 'zod';
const Chat = createAgent({
  bookFlight: createTool('book-flight')
    .parameter(z.string())
    .execute(function* (trip) {
      return Ok({ booked: trip });
    }),
});`,
  },
  {
    starts: 'const result = yield* sample({',
    wrap: true,
    prelude: `import { sample } from '${RUNTIME}';\ndeclare const trip: string;`,
  },
  { starts: 'import { createElicit } from "@sweatpants/agent";', prelude: `import * as z from 'zod';` },
  {
    starts: 'const flightSelectionElicit = createElicit({',
    prelude: `import { createElicit } from '${RUNTIME}';
import * as z from 'zod';
const FlightSchema = z.object({ id: z.string(), departs: z.string() });`,
  },
  { starts: 'type ElicitResult<T> =' },
  { starts: 'import { createProtocol } from "@sweatpants/core";', exports: 'export { LocationProtocol };' },
  {
    starts: 'import { createImplementation, call } from "@sweatpants/core";',
    prelude: LOCATION,
    patch: {
      from: 'new Promise((resolve, reject)',
      to: 'new Promise<GeolocationPosition>((resolve, reject)',
      why: 'the seed’s promise has no type, so strict TypeScript reads the position as unknown',
    },
  },
  {
    starts: 'const cliLocation = createImplementation(LocationProtocol, function* () {',
    prelude: `import { createImplementation } from '${RUNTIME}';
import type { Operation } from 'effection';
${LOCATION}
declare function prompt(question: string): Operation<string>;`,
  },
  {
    starts: 'const WeatherAgent = createAgent({',
    prelude: `import { createAgent, createTool, Err, Ok } from '${RUNTIME}';
import type { Operation } from 'effection';
${LOCATION}
declare function fetchWeather(at: { lat: number; lng: number }): Operation<{ summary: string }>;`,
  },
  {
    starts: 'yield* api.decorate(',
    skipped:
      'the shape of any middleware, not code: `methodName` stands for a method, `"max" | "min"` for a choice (the `around` snippets after it are its real form, and compile)',
  },
  {
    starts: 'yield* around(',
    wrap: true,
    prelude: `import { around } from '${RUNTIME}';\ndeclare function redactPII(text: string | undefined): string;`,
  },
  { starts: 'yield* around(', wrap: true, prelude: `import { around } from '${RUNTIME}';` },
  {
    starts: 'const HttpConfig = Context.create<{ retries: number; timeout: number }>(',
    wrap: true,
    prelude: `import { Context, createAgent, createTool, Ok } from '${RUNTIME}';
import * as z from 'zod';
const ExternalServiceAgent = createAgent({
  fetchData: createTool('fetch-data')
    .parameter(z.object({ endpoint: z.string() }))
    .execute(function* ({ endpoint }) {
      return Ok({ endpoint, body: '' });
    }),
});`,
  },
  {
    starts: 'yield* agent.use(plugin);',
    wrap: true,
    prelude: `import type { AgentPlugin, CreatedAgent, ToolSet } from '${RUNTIME}';
declare const agent: CreatedAgent<ToolSet>;
declare const plugin: AgentPlugin;`,
  },
  {
    starts: 'import { Ok, Err } from "effection";',
    prelude: `import { createElicit, elicit } from '${RUNTIME}';
import * as z from 'zod';
const confirmationElicit = createElicit({
  name: 'booking-confirmation',
  description: 'Confirm the booking',
  input: z.object({}),
  output: z.object({ confirmed: z.boolean() }),
});`,
  },
  {
    starts: '// Inject mock agents',
    skipped:
      'pseudo-code: `bookFlight(...)` leaves out its arguments (the runtime’s form is `Flight.with(mock, op)`)',
  },
  { starts: '// Backend side', prelude: `import type { Operation, Stream } from 'effection';` },
  { starts: 'type FrontendMessage =' },
];

/** The seed's fenced ts and typescript blocks, in order. */
function seedSnippets(): string[] {
  const file = readdirSync(SEEDS).find((name) => name.startsWith('004_'));
  if (!file) throw new Error(`no seed 004 in ${SEEDS}`);
  const text = readFileSync(join(SEEDS, file), 'utf8');
  return [...text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

/** The file a snippet is compiled as. */
function source(snippet: Snippet, text: string): string {
  let body = text;
  if (snippet.patch) {
    if (!body.includes(snippet.patch.from))
      throw new Error(`the patch no longer applies: ${snippet.patch.from}`);
    body = body.replace(snippet.patch.from, snippet.patch.to);
  }
  if (snippet.wrap) body = `export function* snippet() {\n${body}\n}`;
  return [snippet.prelude ?? '', body, snippet.exports ?? '', 'export {};'].join('\n');
}

/** The workspace's compiler options, strict, with the seed's package names as the runtime. */
function compilerOptions(): ts.CompilerOptions {
  const base = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(base.config, ts.sys, ROOT);
  return {
    ...parsed.options,
    strict: true,
    // The seed is written for strict TypeScript; the workspace's stricter index reads are its own.
    noUncheckedIndexedAccess: false,
    noEmit: true,
    // One snippet is the browser's implementation of a protocol.
    lib: [...(parsed.options.lib ?? []), 'lib.dom.d.ts'],
    types: ['node'],
    paths: {
      ...parsed.options.paths,
      '@sweatpants/core': ['libs/agents/runtime/src/index.ts'],
      '@sweatpants/agent': ['libs/agents/runtime/src/index.ts'],
    },
  };
}

describe("seed 004's snippets, as written, against the runtime", () => {
  const texts = seedSnippets();

  it('are the snippets this spec knows, in the seed’s order', () => {
    expect(texts.map((t) => t.split('\n')[0]?.trim())).toEqual(SNIPPETS.map((s) => s.starts));
  });

  it('typecheck under strict TypeScript, imports added (the skipped ones are not code)', () => {
    // Under the workspace, so that its node_modules resolve; tmp/ is not checked in.
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'tmp', 'seed-004-'));
    try {
      const files = SNIPPETS.flatMap((snippet, i) => {
        if (snippet.skipped) return [];
        const file = join(dir, `snippet-${String(i).padStart(2, '0')}.ts`);
        writeFileSync(file, source(snippet, texts[i] ?? ''));
        return [file];
      });
      const program = ts.createProgram(files, compilerOptions());
      const problems = ts.getPreEmitDiagnostics(program).map((d) => {
        const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        if (!d.file || d.start === undefined) return message;
        const { line } = d.file.getLineAndCharacterOfPosition(d.start);
        return `${d.file.fileName.replace(`${dir}/`, '')}:${line + 1}: ${message}`;
      });
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

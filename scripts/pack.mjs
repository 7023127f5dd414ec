// `npm run pack`: the framework's libraries as tarballs a developer installs (`npm install
// dist/packages/*.tgz`), outside this workspace: @sweatpants/domain, @sweatpants/agent-runtime (its
// author, host, offline and testing entry points) and @sweatpants/agent-claude (and its testing entry).
//
// Each library is compiled by tsc through its own tsconfig.lib.json to ESM with declarations (and
// declaration maps) under dist/build/<package>/dist, then `npm pack`ed with a package.json written
// here. The sources import each other through tsconfig.base.json's path aliases, whose names are the
// package names: a lib's build tsconfig points them at the libs built before it, so they stay package
// imports and resolve to the other tarballs. The sources' relative imports carry no extension (the
// workspace compiles them as CommonJS), which Node's ESM loader and NodeNext's resolution require: a
// transformer writes each as the file tsc resolved it to (`./tool.js`, `./offline/index.js`).
// Dependencies are what the output imports, at the versions the root package.json pins.
//
//   node scripts/pack.mjs [directory]     tarballs into the directory (dist/packages by default)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const build = join(root, 'dist/build');
const destination = resolve(process.argv[2] ?? join(root, 'dist/packages'));

/** The packages, each after those it imports; `entries` are its exports map, subpath → source file. */
const PACKAGES = [
  {
    name: '@sweatpants/domain',
    lib: 'libs/domain',
    description:
      "Sweatpants' shared types: the conversation tree, the wire, elicits and the conversation port.",
    entries: { '.': 'index' },
  },
  {
    name: '@sweatpants/agent-runtime',
    lib: 'libs/agents/runtime',
    description: 'Write agents as coroutines over a conversation tree, and run them on a model or offline.',
    entries: { '.': 'index', './host': 'host', './offline': 'offline/index', './testing': 'testing/index' },
  },
  {
    name: '@sweatpants/agent-claude',
    lib: 'libs/agents/claude',
    description: "Claude as the Sweatpants agent runtime's model, and a fake Anthropic server for tests.",
    entries: { '.': 'index', './testing': 'testing/index' },
  },
];

const versionOf = (name) => {
  if (name.startsWith('@sweatpants/')) return rootPackage.version;
  const version = rootPackage.dependencies?.[name] ?? rootPackage.devDependencies?.[name];
  if (!version)
    throw new Error(`the packed output imports ${name}, which the root package.json does not list`);
  return version;
};

rmSync(build, { recursive: true, force: true });
mkdirSync(destination, { recursive: true });
for (const pkg of PACKAGES) {
  const out = join(build, pkg.name, 'dist');
  compile(join(root, pkg.lib, 'tsconfig.lib.json'), out);
  copySources(join(root, pkg.lib, 'src'), join(build, pkg.name, 'src'));
  const { imports, typeReferences } = importsOf(out, pkg.name);
  writePackageJson(join(build, pkg.name), pkg, imports, typeReferences);
  copyFileSync(join(root, 'LICENSE'), join(build, pkg.name, 'LICENSE'));
  copyFileSync(join(root, pkg.lib, 'README.md'), join(build, pkg.name, 'README.md'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], {
    cwd: join(build, pkg.name),
    encoding: 'utf8',
  }).trim();
  console.log(`pack: ${relative(process.cwd(), join(destination, tarball))}`);
}

/** tsc through `tsconfig` into `out`, relative imports given the extension Node's ESM loader needs. */
function compile(tsconfig, out) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    { outDir: out },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => fail([d]),
    },
  );
  if (parsed.errors.length > 0) fail(parsed.errors);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const preEmit = ts.getPreEmitDiagnostics(program);
  if (preEmit.length > 0) fail(preEmit);
  const rewrite = withExtensions(parsed.options);
  // The source maps name the sources where the package carries them (copySources), not in this repo.
  const writeFile = (file, text, ...rest) => {
    const source = parsed.options.rootDir;
    const mapped = (from) => {
      const inSource = relative(source, resolve(dirname(file), from));
      return relative(dirname(file), join(out, '../src', inSource))
        .split(sep)
        .join('/');
    };
    if (file.endsWith('.map')) {
      const map = JSON.parse(text);
      text = JSON.stringify({ ...map, sources: map.sources.map(mapped) });
    }
    ts.sys.writeFile(file, text, ...rest);
  };
  const emitted = program.emit(undefined, writeFile, undefined, false, {
    after: [rewrite],
    afterDeclarations: [rewrite],
  });
  if (emitted.diagnostics.length > 0) fail(emitted.diagnostics);
}

function fail(diagnostics) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

/** The sources the maps point to, specs left out: go to definition lands in the TypeScript. */
function copySources(from, to) {
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.spec.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    mkdirSync(dirname(join(to, relative(from, path))), { recursive: true });
    copyFileSync(path, join(to, relative(from, path)));
  }
}

/**
 * A transformer (for the JavaScript and for the declarations) writing each relative module
 * specifier as the file it resolves to, `.ts` made `.js`: `'./tool'` → `'./tool.js'`, `'..'` →
 * `'../index.js'`. Package imports (`zod`, `@sweatpants/domain`) are left as written.
 */
function withExtensions(options) {
  const cache = ts.createModuleResolutionCache(root, (f) => f, options);
  return (context) => (file) => {
    if (!ts.isSourceFile(file)) return file;
    const { factory } = context;
    const specifier = (literal) => {
      if (!literal.text.startsWith('.')) return literal;
      const resolved = ts.resolveModuleName(
        literal.text,
        file.fileName,
        options,
        ts.sys,
        cache,
      ).resolvedModule;
      if (!resolved) throw new Error(`${file.fileName}: cannot resolve ${literal.text}`);
      const target = relative(dirname(file.fileName), resolved.resolvedFileName).split(sep).join('/');
      return factory.createStringLiteral(
        `${target.startsWith('.') ? '' : './'}${target.replace(/\.ts$/, '.js')}`,
      );
    };
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
        return factory.updateImportDeclaration(
          node,
          node.modifiers,
          node.importClause,
          specifier(node.moduleSpecifier),
          node.attributes,
        );
      if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        return factory.updateExportDeclaration(
          node,
          node.modifiers,
          node.isTypeOnly,
          node.exportClause,
          specifier(node.moduleSpecifier),
          node.attributes,
        );
      // `import('./x').T` in a declaration's inferred type
      if (
        ts.isImportTypeNode(node) &&
        ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      )
        return factory.updateImportTypeNode(
          node,
          factory.updateLiteralTypeNode(node.argument, specifier(node.argument.literal)),
          node.attributes,
          node.qualifier,
          ts.visitNodes(node.typeArguments, visit),
          node.isTypeOf,
        );
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitNode(file, visit);
  };
}

/**
 * The packages the output in `out` imports (what its package.json must declare) and the types it
 * references (`/// <reference types="jest" />`); a relative import that leaves the package, which a
 * path alias would have become, fails the pack.
 */
function importsOf(out, self) {
  const imports = new Set();
  const typeReferences = new Set();
  const builtins = new Set(builtinModules);
  for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|d\.ts)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const text = readFileSync(path, 'utf8');
    // tsc writes `/*elided*/ any` for an inferred type it cannot spell: a consumer would get `any`.
    if (text.includes('/*elided*/'))
      throw new Error(`${path} has a type tsc elided: give it a name in the source`);
    for (const [, spec] of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      if (spec.startsWith('.')) {
        if (relative(out, resolve(dirname(path), spec)).startsWith('..'))
          throw new Error(`${path} imports ${spec}, outside ${self}`);
        continue;
      }
      if (spec.startsWith('node:') || builtins.has(spec)) continue;
      const name = spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/');
      if (name !== self) imports.add(name);
    }
    for (const [, name] of text.matchAll(/\/\/\/\s*<reference types="([^"]+)"/g))
      if (name !== 'node') typeReferences.add(`@types/${name}`);
  }
  return { imports: [...imports].sort(), typeReferences: [...typeReferences].sort() };
}

function writePackageJson(dir, pkg, imports, typeReferences) {
  const exports = Object.fromEntries(
    Object.entries(pkg.entries).map(([subpath, file]) => [
      subpath,
      { types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` },
    ]),
  );
  const manifest = {
    name: pkg.name,
    version: rootPackage.version,
    description: pkg.description,
    license: rootPackage.license,
    type: 'module',
    engines: rootPackage.engines,
    exports,
    files: ['dist', 'src', 'README.md', 'LICENSE'],
    dependencies: Object.fromEntries(imports.map((name) => [name, versionOf(name)])),
    // A testing entry's helpers register jest hooks; only a jest suite imports them.
    ...(typeReferences.length > 0
      ? {
          peerDependencies: Object.fromEntries(typeReferences.map((name) => [name, versionOf(name)])),
          peerDependenciesMeta: Object.fromEntries(typeReferences.map((name) => [name, { optional: true }])),
        }
      : {}),
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

'use strict';
// `npm run test:reliability` loads this before src/main.ts: @swc-node/register compiles TypeScript
// on the fly with the compiler options (decorators, the @sweatpants/* paths) of this folder's
// tsconfig, which extends tsconfig.base.json.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.resolve(__dirname, 'tsconfig.json');
require('@swc-node/register');

'use strict';
// `npm run bench` loads this before bench.ts: @swc-node/register compiles TypeScript on the fly and
// reads its tsconfig from SWC_NODE_PROJECT, else ./tsconfig.json of the working directory, which
// this workspace does not have; tsconfig.base.json holds the `paths` for the @sweatpants/* aliases.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.resolve(__dirname, '../../../tsconfig.base.json');
require('@swc-node/register');

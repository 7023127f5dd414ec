'use strict';
// The typed HTTP client for plain JavaScript run by Node (the e2e suite's .mjs files). The client
// is TypeScript: @swc-node/register compiles it as it is required (as apps/api/reliability/
// register.js does for the reliability suite), so a script uses the very client the web app and
// the tests use, with nothing to build first. The domain's tsconfig gives the options, for this
// require only: a process the script starts later (the api) must not inherit them.
const path = require('node:path');

const saved = process.env.SWC_NODE_PROJECT;
process.env.SWC_NODE_PROJECT = path.resolve(__dirname, '../../../tsconfig.json');
try {
  require('@swc-node/register');
  module.exports = require('./index.ts');
} finally {
  if (saved === undefined) delete process.env.SWC_NODE_PROJECT;
  else process.env.SWC_NODE_PROJECT = saved;
}

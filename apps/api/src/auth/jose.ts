import type * as Jose from 'jose' with { 'resolution-mode': 'import' };

/**
 * jose ships only as an ES module. Node (20.19+) loads one through require, which is what this
 * CommonJS build emits; TypeScript's node16 mode does not know that yet, hence the typed require.
 */
const jose = require('jose') as typeof Jose;

export const { SignJWT, jwtVerify } = jose;

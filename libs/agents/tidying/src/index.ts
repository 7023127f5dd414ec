export { Tidying, tidyingAgent } from './tidying-agent';
export { TIDYING_OFFLINE_RULES } from './offline-rules';
export { decide, type Decision } from './decide';
export { tidyingReducer, sessionOf } from './tidying-reducer';
export { toWire, fromWire } from './session-wire';
export * from './tidying-types';
export type { Action } from './tidying-action';
export type { Extract, PhotoAnalysis } from './observation';
export type { SessionState, PhaseData, Phase } from './session-state';

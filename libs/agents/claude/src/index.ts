export * from './claude-config';
export { ClaudeModel } from './claude-model';
export {
  claudePrices,
  costOf,
  UNKNOWN_MODEL_PRICES,
  type ModelPrices,
  type PricedModel,
} from './claude-prices';

export { createDonations, SUMMARY_MODEL } from './donations-agent';
export { donationTools, NEAR_KM, type CoachTools, type DonationTools } from './donation-tools';
export {
  demoDirectory,
  distanceKm,
  DropOffDirectory,
  useDirectory,
  type DirectoryImplementation,
  type Kind,
  type Place,
  type Point,
  type Service,
} from './drop-off-directory';
export { kindOf } from './item-kind';
export { conditionInDoubt, isPlural, itemsIn, MAX_ITEMS_AT_ONCE, wantsCollection } from './said-items';
export { DONATIONS_OFFLINE_RULES } from './offline-rules';

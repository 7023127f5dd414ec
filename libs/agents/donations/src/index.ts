export { createDonations, SUMMARY_MODEL } from './donations-agent';
export { donationTools, type CoachTools, type DonationTools } from './donation-tools';
export { Directory, NEAR_KM, searchDirectory } from './directory-search';
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
export { offerPlace, offerReply, type PlaceOffer } from './place-offer';

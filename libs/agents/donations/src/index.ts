export { createDonations, SUMMARY_MODEL } from './donations-agent';
export { donationTools, type CoachTools, type DonationTools } from './donation-tools';
export {
  demoDirectory,
  distanceKm,
  DropOffDirectory,
  useDirectory,
  type DirectoryImplementation,
  type Kind,
  type Place,
  type Point,
} from './drop-off-directory';
export { itemIn, kindOf } from './item-kind';
export { DONATIONS_OFFLINE_RULES } from './offline-rules';

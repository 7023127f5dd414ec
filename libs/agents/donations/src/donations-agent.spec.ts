import { summaryPolicy } from '@sweatpants/agent-runtime/host';
import { createDonations, SUMMARY_MODEL } from './donations-agent';

const Donations = createDonations({
  *guessPile() {
    return { guess: 'donate', pile: 'out' };
  },
});

describe('the donation helper as a program registers it', () => {
  it('offers the model its four tools in its one mode', () => {
    const [helping] = Donations.definition.modes;
    expect(helping!.tools(null).map((t) => t.name)).toEqual([
      'check_item',
      'describe_donation',
      'find_drop_off',
      'copy_directions',
    ]);
    expect(Object.keys(Donations.tools)).toEqual([
      'checkItem',
      'describeDonation',
      'findDropOff',
      'copyDirections',
      // for other agents that hand the helper a thing (the coach's item to donate), not its model
      'offerPlace',
    ]);
  });

  it('has its short conversations summarised by a small model, keeping items and places', async () => {
    const policy = await summaryPolicy(Donations.definition);
    expect(policy.model).toBe(SUMMARY_MODEL);
    expect(policy.instructions).toMatch(/each item they wanted to give away/);
  });
});

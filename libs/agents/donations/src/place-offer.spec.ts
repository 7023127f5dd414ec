import { offerReply } from './place-offer';

describe("the helper's word on its offer about a thing handed to it", () => {
  it('names the kind of place that takes the thing, and how it finds the nearest', () => {
    expect(offerReply({ item: 'jigsaw puzzle', find: true })).toBe(
      'A charity shop or a toy library usually takes the jigsaw puzzle. To find the nearest place that takes it, start a conversation with the donation helper and tell me roughly where you are.',
    );
    expect(offerReply({ item: 'old books', find: true })).toMatch(
      /library book sale usually takes the old books\. To find the nearest place that takes them,/,
    );
  });

  it('leaves the thing be when the person says no', () => {
    expect(offerReply({ item: 'board game', find: false })).toBe(
      "All right, I'll leave the board game to you.",
    );
  });
});

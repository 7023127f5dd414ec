import assert from 'node:assert/strict';

/** 13 km north of the demo reuse centre: a drop-off is in reach, no collection round is. */
const NORTH_OF_CAMDEN = { lat: 51.66, lng: -0.1224 };

/** An answer for each question the helper asks about the chair, as the person would give it. */
function answerFor(pending) {
  switch (pending.type) {
    case 'form': {
      const wanted = { condition: 'good', bags: 1, collection: true };
      const fields = Object.keys(pending.schema?.properties ?? {});
      return { action: 'accept', content: Object.fromEntries(fields.map((f) => [f, wanted[f]])) };
    }
    case 'location':
      return { action: 'accept', content: NORTH_OF_CAMDEN };
    case 'confirm':
      return { action: 'accept', content: { value: true } };
    default:
      return { action: 'decline' };
  }
}

/**
 * A donations conversation in which the helper's directory subagent tried collection, went back,
 * and found a place to take the chair instead: set up through the api, as the person would walk it.
 */
async function chairNorthOfCamden(t) {
  const auth = await t.api.register(t.email('attempts'), 'Giver');
  const { id } = await t.api.createConversation(auth.token, 'donations', 'A chair');
  let conversation = await t.api.say(auth.token, id, 'a wooden chair, could someone pick it up?');
  for (let i = 0; i < 6 && conversation.pendingElicit?.type !== 'chat'; i++) {
    const pending = conversation.pendingElicit;
    await t.api.respond(auth.token, id, pending.elicitId, answerFor(pending));
    conversation = await t.api.settle(auth.token, id);
  }
  return { auth, id };
}

export const scenarios = [
  {
    name: 'a subagent’s abandoned attempt is its own branch in the tree, not the chat’s, and its return is in the reflog',
    async run(t) {
      const { auth, id } = await chairNorthOfCamden(t);
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      await page
        .getByText(/No service I know collects the wooden chair where you are/)
        .first()
        .waitFor();
      // The person made no branch: the chat offers no arrows into the directory's attempt.
      assert.equal(await page.getByRole('button', { name: 'Previous branch' }).count(), 0);
      await t.shot(page, 'chat');

      await page.getByRole('link', { name: 'Tree' }).click();
      await page.locator('svg g.node').first().waitFor();
      const attempt = page.locator('svg g.node', { hasText: 'The directory tried' });
      await attempt.first().waitFor();
      assert.equal(await attempt.count(), 1, 'one abandoned attempt is a branch of its own');
      await t.shot(page, 'tree');
      await attempt.first().click();
      await page.getByText('Tried services that collect').first().waitFor();
      // The conversation does not go on from inside the directory's try: it would answer again.
      await page.getByText('A try the agent made on its own').first().waitFor();
      assert.equal(await page.getByRole('button', { name: 'Continue from here' }).count(), 0);
      await t.shot(page, 'tree-attempt');

      await page.getByRole('link', { name: 'Reflog' }).click();
      const returned = page.getByText("The directory went back from 'services that collect'").first();
      await returned.waitFor();
      await page.getByText("The directory kept what it found: 'places to take it instead'").first().waitFor();
      await returned.scrollIntoViewIfNeeded();
      // The directory's try is not the person's branch to recover.
      assert.equal(await page.getByRole('button', { name: /^Recover/ }).count(), 0);
      await t.shot(page, 'reflog');
    },
  },
];

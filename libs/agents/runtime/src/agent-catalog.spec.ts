import { testAgent } from './testing/test-agent';
import { AgentCatalog, type AgentRegistration } from './agent-catalog';

const about = (title: string): AgentRegistration['about'] => ({
  title,
  description: `${title}, for the catalog's spec`,
  speaker: `the ${title.toLowerCase()}`,
  needs: [],
  intro: 'Hello.',
  placeholder: 'Say something',
});
const tidying: AgentRegistration = {
  definition: { ...testAgent, name: 'tidying' },
  about: { ...about('Coach'), needs: ['photos'] },
  offlineRules: [{ name: 'nothing to say', reply: () => undefined }],
};
const concierge: AgentRegistration = {
  definition: { ...testAgent, name: 'concierge' },
  about: about('Concierge'),
};

const renamed = (registration: AgentRegistration, name: string): AgentRegistration => ({
  ...registration,
  definition: { ...registration.definition, name },
});

describe('AgentCatalog', () => {
  it('lists what was registered, in order, each with how it presents itself', () => {
    const agents = new AgentCatalog().use(concierge).use(tidying);
    expect(agents.names()).toEqual(['concierge', 'tidying']);
    expect(agents.list()).toEqual([
      { name: 'concierge', ...concierge.about },
      { name: 'tidying', ...tidying.about },
    ]);
    expect(agents.get('tidying')?.offlineRules?.length).toBeGreaterThan(0);
    expect(agents.definition('concierge')).toBe(concierge.definition);
  });

  it('knows nothing it was not told: no agent is built in', () => {
    const agents = new AgentCatalog();
    expect(agents.has('tidying')).toBe(false);
    expect(agents.get('tidying')).toBeUndefined();
    expect(() => agents.definition('tidying')).toThrow('no agent named tidying is registered');
    expect(agents.list()).toEqual([]);
  });

  it('refuses a second agent of the same name, and a name a conversation could not carry', () => {
    const agents = new AgentCatalog().use(tidying);
    expect(() => agents.use(renamed(concierge, 'tidying'))).toThrow(
      'an agent named tidying is already registered',
    );
    expect(() => agents.use(renamed(concierge, 'Donation Helper'))).toThrow(
      /lowercase letters, digits or dashes/,
    );
    expect(agents.names()).toEqual(['tidying']);
  });
});

import type { ElicitRequest } from '@sweatpants/domain';

import { PendingQuestions } from './pending-questions';

const coach: ElicitRequest = {
  elicitId: 'q-coach',
  type: 'confirm',
  message: 'Keep the lamp?',
  payload: { default: true },
  askedBy: 'tidying',
};
const helper: ElicitRequest = {
  elicitId: 'q-helper',
  type: 'confirm',
  message: 'Look for places near you?',
  payload: { default: true },
  askedBy: 'donations',
};

describe('PendingQuestions', () => {
  it('holds questions oldest first; the first is the oldest', () => {
    const questions = new PendingQuestions();
    expect(questions.first()).toBeNull();
    expect(questions.asked(coach)).toBe(true);
    expect(questions.asked(helper)).toBe(true);
    expect(questions.all()).toEqual([coach, helper]);
    expect(questions.first()).toEqual(coach);
  });

  it('takes a question delivered again as the one already pending', () => {
    const questions = new PendingQuestions();
    questions.replace([coach, helper]);
    expect(questions.asked({ ...coach })).toBe(false);
    expect(questions.all()).toEqual([coach, helper]);
  });

  it('ends one question by its id, in any order, leaving the others', () => {
    const questions = new PendingQuestions();
    questions.replace([coach, helper]);
    expect(questions.ended('q-helper')).toBe(true);
    expect(questions.all()).toEqual([coach]);
    expect(questions.ended('q-helper')).toBe(false);
    expect(questions.ended('q-coach')).toBe(true);
    expect(questions.all()).toEqual([]);
  });

  it('finds a question by its id, or the oldest when none is named', () => {
    const questions = new PendingQuestions();
    questions.replace([coach, helper]);
    expect(questions.find('q-helper')).toEqual(helper);
    expect(questions.find()).toEqual(coach);
    expect(questions.find('gone')).toBeNull();
  });
});

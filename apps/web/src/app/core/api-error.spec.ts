import { ApiError, describeError } from './api-error';

const invalid = (field: string, message: string) =>
  new ApiError({ code: 'invalid_request', message: 'bad', details: [{ field, message }] }, 400);

describe('describeError: the api’s refusals in plain words', () => {
  it('says which photo the api refused and why', () => {
    expect(describeError(invalid('photos.0', 'is not a JPEG, PNG, WebP or GIF image'))).toBe(
      'That photo is not a JPEG, PNG, WebP or GIF image.',
    );
    expect(describeError(invalid('content.photos.1', 'is image/jpeg, not image/png'))).toBe(
      'That photo is image/jpeg, not image/png.',
    );
  });

  it('names the password fields of the account page', () => {
    expect(describeError(invalid('currentPassword', 'is not your current password'))).toBe(
      'That is not your current password.',
    );
    expect(describeError(invalid('password', 'is not your password'))).toBe('That is not your password.');
    expect(describeError(invalid('newPassword', 'at least 8 characters'))).toBe(
      'Use at least 8 characters for the new password.',
    );
  });
});

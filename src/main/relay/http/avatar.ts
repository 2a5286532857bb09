import { LIMITS } from '../../../shared/api/common.js';
import { badRequest } from './errors.js';
import { checkText } from './text-fields.js';

/** A group avatar is an http(s) URL or a data:image/... URI of at most 256 KiB, or null. */
export function checkAvatar(avatar: string | null | undefined): string | null | undefined {
  if (avatar === undefined || avatar === null) return avatar;
  checkText(avatar, 'the avatar');
  if (avatar.startsWith('data:')) {
    if (!/^data:image\/(png|jpeg|gif|webp|svg\+xml)(;base64)?,/.test(avatar))
      throw badRequest('avatar must be a data:image/... URI (png, jpeg, gif, webp or svg)', 'invalid-avatar');
    if (Buffer.byteLength(avatar) > LIMITS.avatarMaxBytes) throw badRequest('avatar is over 256 KiB', 'invalid-avatar');
    return avatar;
  }
  let url: URL;
  try {
    url = new URL(avatar);
  } catch {
    throw badRequest('avatar must be an http(s) URL or a data:image/... URI', 'invalid-avatar');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw badRequest('avatar must be an http(s) URL or a data:image/... URI', 'invalid-avatar');
  if (avatar.length > 2048) throw badRequest('avatar URL is over 2048 characters', 'invalid-avatar');
  return avatar;
}

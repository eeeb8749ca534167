import { AddonRole } from '../addon.entity.js';
import type { AuthorRow, IdCursor, UserRow } from './model.js';
import { DAY, TIME_END, TIME_START } from './model.js';
import { Rng, Stream, fmix32, hash32 } from './prng.js';
import { capitalise, type Vocabulary } from './vocabulary.js';

/** About one author account per three add-ons. */
export const usersFor = (addons: number) => Math.max(1, Math.ceil(addons / 3));

const OCCUPATIONS = ['Developer', 'Designer', 'Student', 'Engineer', 'Teacher', 'Artist', 'Translator', 'Researcher'];

/**
 * A user, from (seed, id) alone. Usernames embed the id, so they (and the emails made from them)
 * never repeat across runs or appends.
 */
export function generateUser(seed: number, id: number, vocabulary: Vocabulary): UserRow {
  const rng = Rng.for(seed, Stream.USER, id);
  const username = rng.chance(0.25)
    ? `anonymous-${fmix32(id ^ hash32(seed, 7))
        .toString(16)
        .padStart(8, '0')}${rng.hex(12)}`
    : `${vocabulary.word(rng, 0.3)}${rng.chance(0.5) ? vocabulary.word(rng, 0.3) : ''}${id}`.toLowerCase();
  const created = TIME_START + Math.floor((TIME_END - TIME_START) * Math.pow(rng.next(), 0.8));
  const displayName = rng.chance(0.7)
    ? `${capitalise(vocabulary.word(rng, 0.3))} ${capitalise(vocabulary.word(rng, 0.3))}`.slice(0, 50)
    : null;
  return {
    id,
    username,
    email: `${username}@example.com`,
    display_name: displayName,
    biography: rng.chance(0.2) ? vocabulary.summary(rng, rng.int(8, 25)) : null,
    homepage: rng.chance(0.15) ? `https://${vocabulary.word(rng, 0.3)}.example.net/` : null,
    location: rng.chance(0.1) ? capitalise(vocabulary.word(rng, 0.3)) : null,
    occupation: rng.chance(0.1) ? rng.pick(OCCUPATIONS) : null,
    read_dev_agreement: created + rng.int(0, 30) * DAY,
    created,
    modified: created,
  };
}

/** The user ids of one run: `count` accounts from `first`. */
export interface UserRange {
  first: number;
  count: number;
}

/**
 * 1–3 authors for the `index`-th add-on of a run of `total`. The owner is either spread evenly over
 * the run's users or drawn with a strong bias towards the first ones, so that most authors have a
 * few add-ons and some have hundreds.
 */
export function pickAuthors(
  rng: Rng,
  addonId: number,
  index: number,
  total: number,
  users: UserRange,
  ids: IdCursor,
): AuthorRow[] {
  const wanted = Math.min(
    users.count,
    rng.weighted([
      [1, 70],
      [2, 20],
      [3, 10],
    ] as const),
  );
  const chosen: number[] = [];
  for (let attempt = 0; chosen.length < wanted && attempt < 20; attempt++) {
    const spread = attempt === 0 && rng.chance(0.6);
    const offset = spread
      ? Math.floor(((index + rng.next()) * users.count) / total)
      : Math.floor(users.count * Math.pow(rng.next(), 2));
    const userId = users.first + Math.min(users.count - 1, offset);
    if (!chosen.includes(userId)) chosen.push(userId);
  }
  return chosen.map((userId, position) => ({
    id: ids.addon_users++,
    addon_id: addonId,
    user_id: userId,
    role: position === 0 || rng.chance(0.3) ? AddonRole.OWNER : AddonRole.DEVELOPER,
    listed: rng.chance(position === 0 ? 0.98 : 0.85),
    position,
  }));
}

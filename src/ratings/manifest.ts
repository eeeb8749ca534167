import type { DomainManifest } from '../core/domain.js';
import { Rating, RatingFlag, RatingThrottle } from './rating.entity.js';
import { RatingPageResolver, RatingsResolver } from './ratings.resolver.js';

export const ratingsManifest: DomainManifest = {
  name: 'ratings',
  entities: [Rating, RatingFlag, RatingThrottle],
  resolvers: [RatingsResolver, RatingPageResolver],
};

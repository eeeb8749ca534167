import { defineModule } from '../core/module.js';
import { ratingsMigrations } from './migrations/index.js';
import { createRatingsServices } from './services.js';
import { accountsModule } from '../accounts/module.js';
import { catalogueModule } from '../catalogue/module.js';
import { Rating, RatingFlag, RatingThrottle } from './rating.entity.js';
import { RatingPageResolver, RatingsResolver } from './ratings.resolver.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /** Mails a new rating to the add-on's authors, or a first reply to the rating's author (`RatingMails.mail`). */
    'rating-mail': { ratingId: number };
  }
}

/** Ratings of add-ons, their replies, flags and throttles, and the mails of new ratings and replies. */
export const ratingsModule = defineModule({
  name: 'ratings',
  dependsOn: [accountsModule, catalogueModule],
  entities: [Rating, RatingFlag, RatingThrottle],
  resolvers: [RatingsResolver, RatingPageResolver],
  migrations: ratingsMigrations,
  services: createRatingsServices,
  jobs: {
    'rating-mail': {
      queue: { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true },
      handle: (services) => (job) => services.ratingMails.mail(job.data.ratingId),
    },
  },
});

export type { RatingsServices } from './services.js';

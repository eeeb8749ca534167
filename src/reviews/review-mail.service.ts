import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { receiveReviewMail } from './reviews.access.js';
import type { ReviewsService } from './reviews.service.js';

export interface InboundMailSettings {
  secretKey: string | null;
  validationKey: string;
  allowedIps: readonly string[];
}

export interface InboundMailInput {
  secretKey: string | null;
  /** `Validation`: the provider checks the endpoint. */
  type: string | null;
  to: string[] | null;
  textBody: string | null;
}

/**
 * The inbound mail endpoint's rules (docs/compat-notes.md §4.6): a shared secret and an optional address
 * allow-list; the provider's validation probe; replies become review notes, anything else is
 * accepted and discarded (the provider must not retry it).
 */
export class ReviewMailService {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly settings: InboundMailSettings,
  ) {}

  async receive(ctx: RequestContext, input: InboundMailInput) {
    receiveReviewMail(ctx, input.secretKey, this.settings);
    const validationKey = this.settings.validationKey;
    if (input.type === 'Validation') return { validationKey, validation: true, accepted: false };
    if (input.textBody === null) throw errors.badRequest('Message not present in the POST data.');
    const note = await this.reviews.receiveMail(ctx.em, { to: input.to ?? [], textBody: input.textBody });
    return { validationKey, validation: false, accepted: note !== null };
  }
}

import { Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import { Requires, SIGN_IN } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import { PageArgs, PageOf } from '../graphql/pagination.js';
import type { SigningServices } from './services.js';
import { UploadType } from './signing.types.js';
import { listOwnUploads } from './upload-list.js';

@ObjectType('AddonUploadPage')
export class AddonUploadPage extends PageOf(UploadType) {}

/** The viewer's own uploads (v5's `GET /api/v5/addons/upload/`). */
@Resolver()
export class UploadListResolver {
  constructor(private readonly services: SigningServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.STATUS)
  @Requires(SIGN_IN)
  @Query(() => AddonUploadPage, {
    description:
      "The viewer's uploads, newest first, submitted or not (an API key limited to some add-ons: those not submitted yet and its add-ons').",
  })
  myAddonUploads(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    return listOwnUploads(ctx, this.services.uploads, args.page, args.pageSize);
  }
}

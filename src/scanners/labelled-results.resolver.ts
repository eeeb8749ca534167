import { Args, ArgsType, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import { Permission } from '../access/permissions.js';
import { Requires, anyOf } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import { PageArgs, PageOf } from '../graphql/pagination.js';
import type { ScannersServices } from './services.js';
import { ScannerResultType } from './scanners.types.js';

@ObjectType('LabelledScannerResult', {
  description: "A scanner's result with what humans decided about its version (a training example).",
})
export class LabelledScannerResultType extends ScannerResultType {
  @Field({ description: '`bad`: a block covers the version; `good`: a reviewer approved it, and no block covers it.' })
  label!: string;
}

@ObjectType('LabelledScannerResultPage')
export class LabelledScannerResultPageType extends PageOf(LabelledScannerResultType) {}

@ArgsType()
class LabelledResultsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: '`good` or `bad` (BAD_REQUEST otherwise); absent: both.' })
  label?: string | null;

  @Field(() => String, { nullable: true, description: 'One scanner (BAD_REQUEST for an unknown one); absent: all.' })
  scanner?: string | null;
}

/** The labelled scanner results export (Admin:ScannersResultsView). */
@Resolver(() => LabelledScannerResultType)
export class LabelledResultsResolver {
  constructor(private readonly services: ScannersServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(anyOf(Permission.ADMIN_SCANNERS_RESULTS_VIEW))
  @Query(() => LabelledScannerResultPageType, {
    description:
      'Scanner results of the versions humans judged, newest first: `bad` when a block covers the version, ' +
      "`good` when a reviewer approved it (not the service's automatic approval) and no block covers it.",
  })
  labelledScannerResults(@Args() args: LabelledResultsArgs, @Ctx() ctx: RequestContext) {
    return this.services.labelledScannerResults.list(ctx, { ...args });
  }
}

import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { anyOf, Requires } from '../access/requirements.js';
import { VersionType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { ScannersServices } from './services.js';
import { SCANNERS_RULES_EDIT, SCANNERS_RULES_VIEW } from './scanners.service.js';
import { ScannerResultType, ScannerRuleInputType, ScannerRuleType } from './scanners.types.js';

/** YARA rules (admins) and a version's scanner results (its channel's reviewers). */
@Resolver(() => VersionType)
export class ScannersResolver {
  constructor(private readonly services: ScannersServices) {}

  @Requires(anyOf(...SCANNERS_RULES_VIEW))
  @Query(() => [ScannerRuleType], { description: 'Every YARA rule, disabled ones included.' })
  scannerRules(@Ctx() ctx: RequestContext) {
    return this.services.scanners.listRules(ctx);
  }

  @Requires(anyOf(...SCANNERS_RULES_EDIT))
  @Mutation(() => ScannerRuleType, { description: 'Adds a YARA rule; a rule that does not compile is a field error.' })
  createScannerRule(@Arg('input') input: ScannerRuleInputType, @Ctx() ctx: RequestContext) {
    return this.services.scanners.createRule(ctx, { ...input });
  }

  @Requires(anyOf(...SCANNERS_RULES_EDIT))
  @Mutation(() => ScannerRuleType, { description: 'Changes a YARA rule (`isActive: false` disables it).' })
  updateScannerRule(
    @Arg('id', () => Int) id: number,
    @Arg('input') input: ScannerRuleInputType,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.scanners.updateRule(ctx, id, { ...input });
  }

  @FieldResolver(() => [ScannerResultType], {
    nullable: true,
    description: "The scanners' results (YARA, secrets, look-alike names): for its channel's reviewers, else null.",
  })
  scannerResults(@Root() version: VersionType, @Ctx() ctx: RequestContext) {
    return this.services.scanners.resultsFor(ctx, version);
  }
}

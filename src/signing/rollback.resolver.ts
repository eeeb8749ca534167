import { Arg, Ctx, Int, Mutation, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import { Requires, SIGN_IN, objectRule } from '../access/requirements.js';
import { rollBackVersions } from './signing.access.js';
import { VersionType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { SigningServices } from './services.js';

/** Rolling back a bad release: an earlier approved version re-published under a new version string. */
@Resolver()
export class RollbackResolver {
  constructor(private readonly services: SigningServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.UPLOAD)
  @Requires(SIGN_IN, objectRule(rollBackVersions))
  @Mutation(() => VersionType, {
    description:
      'Re-publishes the package of an earlier approved, signed version (listed: the one before the latest) as ' +
      'the new version `newVersion` (greater than every version of the add-on, unused), signed anew and ' +
      'approved without a human review once signed. Refused for blocked versions and disabled add-ons.',
  })
  rollbackVersion(
    @Arg('addon', { description: 'Add-on id, slug or guid.' }) addon: string,
    @Arg('version', () => Int, { description: 'The id of the version to roll back to.' }) version: number,
    @Arg('newVersion', { description: "The new version's string." }) newVersion: string,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.rollback.rollback(ctx, { addon, versionId: version, newVersion });
  }
}

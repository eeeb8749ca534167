import type { DomainManifest } from '../core/domain.js';
import { SigninAttempt, SigninLink, UserIdentity } from './signin.entities.js';
import { SigninLinksResolver } from './signin-links.resolver.js';
import { SigninResolver } from './signin.resolver.js';

/** Browser sign-in: OpenID Connect providers, one-time links by mail, and the sessions people hold. */
export const signinManifest: DomainManifest = {
  name: 'signin',
  entities: [SigninAttempt, UserIdentity, SigninLink],
  resolvers: [SigninResolver, SigninLinksResolver],
};

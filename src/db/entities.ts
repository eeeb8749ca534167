import { Group } from '../accounts/group.entity.js';
import { User } from '../accounts/user.entity.js';
import { ApiKey } from '../auth/api-key.entity.js';
import { JwtNonce } from '../auth/jwt-nonce.entity.js';
import { Session } from '../auth/session.entity.js';
import { SiteSetting } from '../site/site-setting.entity.js';

/** Every entity, listed explicitly (no folder discovery: it breaks under Jest's ESM loader). */
export const entities = [User, Group, ApiKey, JwtNonce, Session, SiteSetting];

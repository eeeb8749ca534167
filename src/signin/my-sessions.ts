import type { SessionsService } from '../auth/sessions.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { ActiveSessionType } from './signin.types.js';

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A signed-in person's own sessions: listed, ended one by one, or all but this one. */
export class MySessions {
  constructor(private readonly sessions: SessionsService) {}

  async list(ctx: RequestContext): Promise<ActiveSessionType[]> {
    const rows = await this.sessions.listActive(ctx.em, this.userId(ctx));
    return rows.map((s) => ({
      id: s.id,
      created: s.created,
      lastUsed: s.lastUsed,
      expiresAt: s.expiresAt,
      origin: s.origin,
      secondFactor: s.secondFactor,
      userAgent: s.userAgent,
      ip: s.ip,
      current: s.id === ctx.viewer.sessionId,
    }));
  }

  async end(ctx: RequestContext, id: string): Promise<boolean> {
    const userId = this.userId(ctx);
    if (!SESSION_ID.test(id) || !(await this.sessions.revokeOwn(ctx.em, userId, id))) throw errors.notFound();
    return true;
  }

  async endOthers(ctx: RequestContext): Promise<number> {
    return this.sessions.revokeOthers(ctx.em, this.userId(ctx), ctx.viewer.sessionId);
  }

  private userId(ctx: RequestContext): number {
    if (!ctx.viewer.userId) throw errors.notAuthenticated();
    return ctx.viewer.userId;
  }
}

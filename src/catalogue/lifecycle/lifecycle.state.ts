import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../../db/rows.js';

/** An add-on's state as the lifecycle operations answer it. */
export interface AddonState {
  id: number;
  status: number;
  disabledByUser: boolean;
  promotedCategory: number | null;
  promotedApps: number[];
  guidDenied: boolean;
}

/** The add-on's lifecycle state, as the operations answer it. */
export async function addonState(em: EntityManager, addonId: number): Promise<AddonState> {
  const [row] = await selectRows<{
    id: number;
    status: number;
    disabled_by_user: boolean;
    promoted_category: number | null;
    promoted_apps: number[];
    guid_denied: boolean;
  }>(
    em,
    `select a.id, a.status, a.disabled_by_user, a.promoted_category, a.promoted_apps,
            exists (select 1 from denied_guids d where d.guid = a.guid) as guid_denied
       from addons a where a.id = ?`,
    [addonId],
  );
  return {
    id: row.id,
    status: row.status,
    disabledByUser: row.disabled_by_user,
    promotedCategory: row.promoted_category,
    promotedApps: row.promoted_apps.map(Number),
    guidDenied: row.guid_denied,
  };
}

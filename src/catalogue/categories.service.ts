import type { EntityManager } from '@mikro-orm/postgresql';
import { Category } from './category.entity.js';

/**
 * Categories change only through migrations, so each process reads them once.
 * (An admin editor for categories would have to call `invalidate()`.)
 */
export class CategoriesService {
  private cache: Promise<Category[]> | null = null;

  all(em: EntityManager): Promise<Category[]> {
    // Read in `em`'s transaction when it has one: on PGlite that transaction holds the one connection.
    this.cache ??= em
      .fork({ keepTransactionContext: true })
      .find(Category, {}, { orderBy: { application: 'asc', type: 'asc', weight: 'asc', slug: 'asc' } })
      .catch((error) => {
        this.cache = null;
        throw error;
      });
    return this.cache;
  }

  async byIds(em: EntityManager, ids: readonly number[]): Promise<Category[]> {
    const wanted = new Set(ids);
    return (await this.all(em)).filter((c) => wanted.has(c.id));
  }

  /** The category with this slug (or numeric id) for an application and add-on type. */
  async find(em: EntityManager, app: number, type: number, slugOrId: string): Promise<Category | null> {
    const all = await this.all(em);
    return (
      all.find((c) => c.application === app && c.type === type && (c.slug === slugOrId || String(c.id) === slugOrId)) ??
      null
    );
  }

  invalidate(): void {
    this.cache = null;
  }
}

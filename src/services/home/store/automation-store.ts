// Automations saved over the config API (home_automations): they override the house file's,
// and a NULL config marks one deleted from it.
import type { Kysely } from 'kysely';
import type { Db } from '../../../platform/db.js';
import type { HomeTables } from './tables.js';

export class AutomationStore {
  private readonly k: Kysely<HomeTables>;

  constructor(db: Db) {
    this.k = db.kysely as Kysely<HomeTables>;
  }

  async overrides(): Promise<Array<{ id: string; config: string | null }>> {
    return this.k.selectFrom('home_automations').select(['id', 'config']).execute();
  }

  /** Saves an automation's config, or null to mark it deleted. */
  async put(id: string, config: string | null, now: string): Promise<void> {
    await this.k
      .insertInto('home_automations')
      .values({ id, config, updated_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ config, updated_at: now }))
      .execute();
  }
}

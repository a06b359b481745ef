// Avatars and banners, kept in the database beside what they decorate. The owner's row
// carries the image's digest (avatar_etag, banner_etag) so that answers can name the image's
// URL without reading the bytes; both change in one transaction.
import { createHash } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import type { Db } from '../../../platform/db.js';
import type { CommunityKysely, ImageKind, ImageOwner } from './tables.js';

export interface StoredImage {
  content_type: string;
  etag: string;
  data: Buffer;
}

export class ImageStore {
  private readonly db: CommunityKysely;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.db = db.kysely as CommunityKysely;
  }

  /** Stores (or replaces) an image; returns its digest. */
  async put(owner: ImageOwner, ownerId: string, kind: ImageKind, contentType: string, data: Buffer): Promise<string> {
    const etag = createHash('sha256').update(data).digest('base64url').slice(0, 16);
    const now = this.clock.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('community_images')
        .values({ owner_type: owner, owner_id: ownerId, kind, content_type: contentType, etag, data, created_at: now })
        .onConflict((oc) =>
          oc
            .columns(['owner_type', 'owner_id', 'kind'])
            .doUpdateSet({ content_type: contentType, etag, data, created_at: now }),
        )
        .execute();
      await this.setDigest(trx, owner, ownerId, kind, etag);
    });
    return etag;
  }

  /** Removes an image; returns whether there was one. */
  async remove(owner: ImageOwner, ownerId: string, kind: ImageKind): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .deleteFrom('community_images')
        .where('owner_type', '=', owner)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .executeTakeFirst();
      await this.setDigest(trx, owner, ownerId, kind, null);
      return Number(r.numDeletedRows) > 0;
    });
  }

  get(owner: ImageOwner, ownerId: string, kind: ImageKind): Promise<StoredImage | undefined> {
    return this.db
      .selectFrom('community_images')
      .select(['content_type', 'etag', 'data'])
      .where('owner_type', '=', owner)
      .where('owner_id', '=', ownerId)
      .where('kind', '=', kind)
      .executeTakeFirst();
  }

  private async setDigest(
    trx: CommunityKysely,
    owner: ImageOwner,
    ownerId: string,
    kind: ImageKind,
    etag: string | null,
  ) {
    if (owner === 'agent') {
      await trx.updateTable('community_agents').set({ avatar_etag: etag }).where('id', '=', ownerId).execute();
    } else {
      await trx
        .updateTable('community_communities')
        .set(kind === 'avatar' ? { avatar_etag: etag } : { banner_etag: etag })
        .where('id', '=', ownerId)
        .execute();
    }
  }
}

// The tag integration: a `tag_scanned` event ({tag_id, device_id?}) is a scan. As HA's
// async_scan_tag does, it moves the tag entity (state: the scan time to the millisecond;
// last_scanned_by_device_id) and adds a tag seen for the first time as `tag.<tag id>`, named
// "Tag <tag id>". HA fires the event from its own scan call; here the event itself is the scan,
// so a scan can come from any client (REST /api/events/tag_scanned, WebSocket fire_event, a
// workflow). `tag/list` answers the tags as HA's tag collection does.
import type { Home } from '../core/home.js';
import { slugify } from '../core/state.js';
import { isoUs } from '../core/time.js';

export interface TagItem {
  id: string;
  name: string;
  last_scanned?: string;
  device_id?: string;
}

/** The tag entities of the home, by tag id. */
function tagEntities(home: Home): Map<string, string> {
  const out = new Map<string, string>();
  for (const entityId of home.states.entityIds('tag')) {
    const tagId = home.states.get(entityId)?.attributes.tag_id;
    if (typeof tagId === 'string') out.set(tagId, entityId);
  }
  return out;
}

/** HA's tag collection: every tag with its id (the tag id), name, and the last scan if any. */
export function listTags(home: Home): TagItem[] {
  return [...tagEntities(home)].map(([id, entityId]) => {
    const state = home.states.get(entityId)!;
    const scan = home.entityOptions.get(entityId)?.lastScan as { at: string; deviceId: string | null } | undefined;
    const lastScanned = scan?.at ?? (state.state === 'unknown' ? undefined : state.state);
    const deviceId = scan?.deviceId ?? (state.attributes.last_scanned_by_device_id as string | null);
    return {
      id,
      name: state.name,
      ...(lastScanned ? { last_scanned: lastScanned } : {}),
      ...(deviceId ? { device_id: deviceId } : {}),
    };
  });
}

/** Longest tag or device id taken from a scan (HA's entity ids stop at 255 characters too). */
const MAX_ID = 255;

/** `tag.<slug>`, or `tag.<slug>_2`, `_3`… when another tag has that entity id (HA's registry does the same). */
function newEntityId(home: Home, tagId: string): string {
  const base = `tag.${slugify(tagId)}`;
  let id = base;
  for (let n = 2; home.states.get(id); n++) id = `${base}_${n}`;
  return id;
}

export function registerTags(home: Home): () => void {
  if (!home.components.has('tag')) {
    home.components.add('tag');
    home.fire('component_loaded', { component: 'tag' }, home.context());
  }
  return home.bus.listen('tag_scanned', (e) => {
    // The instance where the scan happened writes the state; the others get it replicated.
    if (e.replicated) return;
    const { tag_id: tagId, device_id: device } = e.data;
    if (
      typeof tagId !== 'string' ||
      tagId === '' ||
      tagId.length > MAX_ID ||
      (device != null && (typeof device !== 'string' || device.length > MAX_ID))
    ) {
      home.logger.warn(
        { tag_id: typeof tagId === 'string' ? tagId.slice(0, 80) : tagId },
        `home: a tag_scanned event is a scan only with a tag_id (and a device_id, if any) of 1 to ${MAX_ID} characters`,
      );
      return;
    }
    const deviceId = typeof device === 'string' ? device : null;
    const entityId = tagEntities(home).get(tagId) ?? newEntityId(home, tagId);
    const current = home.states.get(entityId);
    const us = home.nowUs();
    (home.entityOptions.get(entityId) ?? home.entityOptions.set(entityId, {}).get(entityId)!).lastScan = {
      at: isoUs(us),
      deviceId,
    };
    const name = current?.name ?? `Tag ${tagId}`;
    // HA: last_scanned.isoformat(timespec="milliseconds").
    const state = isoUs(us).replace(/(\.\d{3})\d{3}/, '$1');
    home.states.set(
      entityId,
      state,
      { tag_id: tagId, last_scanned_by_device_id: deviceId, friendly_name: name },
      e.context,
    );
  });
}

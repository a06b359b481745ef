// tag: HA's NFC and QR tags (tag.<name>). The house file lists the known ones (`{domain: tag,
// id, name, tag_id}`); the state is when the tag was last scanned (to the millisecond, as HA
// writes it), `unknown` before the first scan. Scans arrive as `tag_scanned` events
// (generic/tag.ts), which also add a tag never seen before.
import type { DomainModule } from './domain.js';

export const tag: DomainModule = {
  domain: 'tag',
  services: [],
  setup(device) {
    const tagId = typeof device.tag_id === 'string' && device.tag_id !== '' ? device.tag_id : device.id;
    return {
      state: 'unknown',
      attributes: { tag_id: tagId, last_scanned_by_device_id: null, friendly_name: device.name },
    };
  },
};

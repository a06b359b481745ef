// tag/list: the tags, as HA's tag collection lists them (generic/tag.ts). Node-RED's Home
// Assistant nodes ask for it when get_config's components include `tag`.
import { listTags } from '../generic/tag.js';
import type { Command } from './commands.js';

export const tagCommands: Record<string, Command> = {
  'tag/list'(s, msg) {
    s.result(msg.id, listTags(s.home));
  },
};

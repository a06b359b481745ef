// config/*_registry WebSocket commands: the floors, areas, labels, devices and entities of
// the house file, in HA's shapes (registry/shapes.ts). Read-only: the house file is their source.
import {
  areaJson,
  deviceJson,
  entitiesForDisplay,
  entityExtendedJson,
  entityJson,
  floorJson,
  labelJson,
} from '../core/registry/shapes.js';
import type { Command } from './commands.js';
import { CommandError, expectStr, formatError } from './messages.js';

export const registryCommands: Record<string, Command> = {
  'config/floor_registry/list'(s, msg) {
    const r = s.home.registry;
    s.result(
      msg.id,
      [...r.floors.values()].map((f) => floorJson(r, f)),
    );
  },

  'config/area_registry/list'(s, msg) {
    const r = s.home.registry;
    s.result(
      msg.id,
      [...r.areas.values()].map((a) => areaJson(r, a)),
    );
  },

  'config/label_registry/list'(s, msg) {
    const r = s.home.registry;
    s.result(
      msg.id,
      [...r.labels.values()].map((l) => labelJson(r, l)),
    );
  },

  'config/device_registry/list'(s, msg) {
    const r = s.home.registry;
    s.result(
      msg.id,
      [...r.devices.values()].map((d) => deviceJson(r, d)),
    );
  },

  'config/entity_registry/list'(s, msg) {
    const r = s.home.registry;
    s.result(
      msg.id,
      [...r.entities.values()].map((e) => entityJson(r, e)),
    );
  },

  'config/entity_registry/list_for_display'(s, msg) {
    s.result(msg.id, entitiesForDisplay(s.home.registry));
  },

  'config/entity_registry/get'(s, msg) {
    const id = expectStr(msg, 'entity_id', true)!;
    const r = s.home.registry;
    const e = r.entities.get(id.toLowerCase());
    if (!e) throw new CommandError('not_found', 'Entity not found');
    s.result(msg.id, entityExtendedJson(r, e, s.home.states.get(e.entity_id)));
  },

  'config/entity_registry/get_entries'(s, msg) {
    const ids = msg.entity_ids;
    if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string'))
      throw formatError(`expected a list for dictionary value @ data['entity_ids']`);
    const r = s.home.registry;
    s.result(
      msg.id,
      Object.fromEntries(
        (ids as string[]).map((id) => {
          const e = r.entities.get(id.toLowerCase());
          return [id, e ? entityExtendedJson(r, e, s.home.states.get(e.entity_id)) : null];
        }),
      ),
    );
  },
};

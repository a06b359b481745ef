// GetLiveContext's text: HA's overview of the exposed entities (names, domain, state, areas,
// the attributes an assistant needs), as YAML after HA's header line.
import { stringify } from 'yaml';
import type { Home } from '../core/home.js';
import { exposed } from '../conversation/targets.js';

/** Attributes worth telling an assistant (HA keeps a similar allow-list). */
const INTERESTING = [
  'brightness',
  'color_mode',
  'rgb_color',
  'color_temp_kelvin',
  'current_temperature',
  'temperature',
  'target_temp_low',
  'target_temp_high',
  'hvac_action',
  'preset_mode',
  'current_position',
  'volume_level',
  'is_volume_muted',
  'media_title',
  'media_artist',
  'source',
  'unit_of_measurement',
  'device_class',
  'options',
  'min',
  'max',
  'remaining',
  'finishes_at',
];

export function liveContext(home: Home): string {
  const entries = exposed(home).map((s) => {
    const entry = home.registry.entities.get(s.entity_id);
    const area = home.registry.areaOfEntity(s.entity_id);
    const attributes = Object.fromEntries(
      INTERESTING.filter((k) => s.attributes[k] !== undefined && s.attributes[k] !== null).map((k) => [
        k,
        s.attributes[k],
      ]),
    );
    return {
      names: [s.name, ...(entry?.aliases ?? [])].join(', '),
      domain: s.domain,
      state: s.state,
      ...(area ? { areas: [area.name, ...area.aliases].join(', ') } : {}),
      ...(Object.keys(attributes).length ? { attributes } : {}),
    };
  });
  return `Live Context: An overview of the areas and the devices in this smart home:\n${stringify(entries)}`;
}

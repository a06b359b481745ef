// MQTT discovery payloads: topic parsing, HA's abbreviations and `~` base-topic expansion.
// (Value and command templates are rendered by templates.ts.)

const ABBREVIATIONS: Record<string, string> = {
  avty: 'availability',
  avty_t: 'availability_topic',
  avty_mode: 'availability_mode',
  bri_cmd_t: 'brightness_command_topic',
  bri_scl: 'brightness_scale',
  bri_stat_t: 'brightness_state_topic',
  bri_val_tpl: 'brightness_value_template',
  bri_cmd_tpl: 'brightness_command_template',
  clr_temp_cmd_t: 'color_temp_command_topic',
  clr_temp_stat_t: 'color_temp_state_topic',
  clr_temp_val_tpl: 'color_temp_value_template',
  clr_temp_k: 'color_temp_kelvin',
  clr_temp_cmd_tpl: 'color_temp_command_template',
  cmd_tpl: 'command_template',
  cmd_t: 'command_topic',
  cmps: 'components',
  dev: 'device',
  dev_cla: 'device_class',
  fx_cmd_t: 'effect_command_topic',
  fx_list: 'effect_list',
  ic: 'icon',
  json_attr_t: 'json_attributes_topic',
  max_kvn: 'max_kelvin',
  min_kvn: 'min_kelvin',
  max_mirs: 'max_mireds',
  min_mirs: 'min_mireds',
  obj_id: 'object_id',
  o: 'origin',
  opt: 'optimistic',
  p: 'platform',
  pl_avail: 'payload_available',
  pl_not_avail: 'payload_not_available',
  pl_off: 'payload_off',
  pl_on: 'payload_on',
  ret: 'retain',
  rgb_cmd_t: 'rgb_command_topic',
  rgb_stat_t: 'rgb_state_topic',
  rgb_val_tpl: 'rgb_value_template',
  rgb_cmd_tpl: 'rgb_command_template',
  stat_cla: 'state_class',
  stat_off: 'state_off',
  stat_on: 'state_on',
  stat_t: 'state_topic',
  stat_val_tpl: 'state_value_template',
  sup_clrm: 'supported_color_modes',
  t: 'topic',
  uniq_id: 'unique_id',
  unit_of_meas: 'unit_of_measurement',
  val_tpl: 'value_template',
  ids: 'identifiers',
  mf: 'manufacturer',
  mdl: 'model',
  sw: 'sw_version',
  cns: 'connections',
  frc_upd: 'force_update',
  exp_aft: 'expire_after',
};

export type DiscoveryConfig = Record<string, unknown>;

/** `<prefix>/<component>/[<node_id>/]<object_id>/config` → its parts, or undefined. */
export function parseTopic(
  prefix: string,
  topic: string,
): { component: string; nodeId?: string; objectId: string } | undefined {
  const parts = topic.split('/');
  const base = prefix.split('/').length;
  if (parts.slice(0, base).join('/') !== prefix || parts.at(-1) !== 'config') return undefined;
  const rest = parts.slice(base, -1);
  const ok = (s: string) => /^[a-zA-Z0-9_-]+$/.test(s);
  if (rest.length === 2 && rest.every(ok)) return { component: rest[0], objectId: rest[1] };
  if (rest.length === 3 && rest.every(ok)) return { component: rest[0], nodeId: rest[1], objectId: rest[2] };
  return undefined;
}

/** Expands abbreviated keys (also inside `device` and `availability`) and `~` in topic values. */
export function expand(raw: DiscoveryConfig): DiscoveryConfig {
  const out: DiscoveryConfig = {};
  for (const [k, v] of Object.entries(raw)) {
    const key = ABBREVIATIONS[k] ?? k;
    if (key === 'device' && typeof v === 'object' && v && !Array.isArray(v))
      out[key] = Object.fromEntries(Object.entries(v).map(([dk, dv]) => [ABBREVIATIONS[dk] ?? dk, dv]));
    else if (key === 'availability' && Array.isArray(v))
      out[key] = v.map((a) => (typeof a === 'object' && a ? expand(a as DiscoveryConfig) : a));
    else out[key] = v;
  }
  const base = typeof out['~'] === 'string' ? out['~'] : undefined;
  if (base) {
    for (const [k, v] of Object.entries(out)) {
      if ((k.endsWith('_topic') || k === 'topic') && typeof v === 'string') {
        let t = v;
        if (t.startsWith('~')) t = base + t.slice(1);
        if (t.endsWith('~')) t = t.slice(0, -1) + base;
        out[k] = t;
      }
    }
  }
  return out;
}

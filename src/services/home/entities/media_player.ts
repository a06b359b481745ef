// media_player: off / idle / playing / paused. Volume 0..1 (rejected, not clamped, outside),
// mute, sources, play_media. Playback attributes are dropped while the player is off.
import { validation } from '../core/errors.js';
import { any, bool, float, required, str } from '../core/fields.js';
import type { Planned, ServiceContext, ServiceSpec } from '../core/services.js';
import type { Attributes, State } from '../core/state.js';
import { featureMask, memory, type DomainModule } from './domain.js';

const F = {
  pause: 1,
  seek: 2,
  volume_set: 4,
  volume_mute: 8,
  previous_track: 16,
  next_track: 32,
  turn_on: 128,
  turn_off: 256,
  play_media: 512,
  volume_step: 1024,
  select_source: 2048,
  stop: 4096,
  clear_playlist: 8192,
  play: 16384,
};

const STATIC = ['source_list', 'friendly_name', 'supported_features'];

function staticAttrs(s: State): Attributes {
  return Object.fromEntries(STATIC.filter((k) => k in s.attributes).map((k) => [k, s.attributes[k]]));
}

/** The player's state with changes; turning on from off restores the playback attributes it had. */
function to(s: State, state: string, ctx: ServiceContext, changes: Attributes = {}): Planned {
  const mem = memory(ctx.home, s.entity_id);
  if (state === 'off') {
    const look = { ...s.attributes };
    return { state, attributes: staticAttrs(s), then: () => void (s.state !== 'off' && (mem.lastOn = look)) };
  }
  const base: Attributes =
    s.state === 'off'
      ? { volume_level: 0.5, is_volume_muted: false, ...((mem.lastOn as Attributes) ?? {}) }
      : { ...s.attributes };
  const { source_list, friendly_name, supported_features, ...rest } = { ...base, ...changes };
  return { state, attributes: { ...rest, source_list, friendly_name, supported_features } };
}

const onlyWhenOn = (s: State, name: string) => {
  if (s.state === 'off') throw validation(`Entity ${s.entity_id} is off; turn it on before ${name}.`);
};

const simple = (service: string, feature: number, next: (s: State) => string | null): ServiceSpec => ({
  service,
  feature,
  fields: {},
  plan: (s, _d, ctx) => {
    const n = next(s);
    return n === null ? null : to(s, n, ctx);
  },
});

const services: ServiceSpec[] = [
  simple('turn_on', F.turn_on, (s) => (s.state === 'off' ? 'idle' : null)),
  simple('turn_off', F.turn_off, () => 'off'),
  simple('toggle', F.turn_on | F.turn_off, (s) => (s.state === 'off' ? 'idle' : 'off')),
  simple('media_play', F.play, () => 'playing'),
  simple('media_pause', F.pause, () => 'paused'),
  simple('media_play_pause', F.pause, (s) => (s.state === 'playing' ? 'paused' : 'playing')),
  simple('media_stop', F.stop, () => 'idle'),
  simple('media_next_track', F.next_track, (s) => s.state),
  simple('media_previous_track', F.previous_track, (s) => s.state),
  {
    service: 'volume_set',
    name: 'Set volume',
    feature: F.volume_set,
    fields: { volume_level: required(float({ min: 0, max: 1 })) },
    plan: (s, d, ctx) => (onlyWhenOn(s, 'setting the volume'), to(s, s.state, ctx, { volume_level: d.volume_level })),
  },
  {
    service: 'volume_mute',
    name: 'Mute / unmute',
    feature: F.volume_mute,
    fields: { is_volume_muted: required(bool()) },
    plan: (s, d, ctx) => (onlyWhenOn(s, 'muting'), to(s, s.state, ctx, { is_volume_muted: d.is_volume_muted })),
  },
  ...(['volume_up', 'volume_down'] as const).map((service): ServiceSpec => ({
    service,
    feature: F.volume_set,
    fields: {},
    plan(s, _d, ctx) {
      onlyWhenOn(s, 'changing the volume');
      const v = Number(s.attributes.volume_level ?? 0.5);
      const next = Math.round(Math.min(1, Math.max(0, v + (service === 'volume_up' ? 0.1 : -0.1))) * 100) / 100;
      return to(s, s.state, ctx, { volume_level: next });
    },
  })),
  {
    service: 'select_source',
    name: 'Select source',
    feature: F.select_source,
    fields: { source: required(str()) },
    plan(s, d, ctx) {
      const list = (s.attributes.source_list as string[]) ?? [];
      if (!list.includes(d.source as string))
        throw validation(`Source ${String(d.source)} is not valid. Valid sources are: ${list.join(', ')}.`);
      return to(s, s.state === 'off' ? 'idle' : s.state, ctx, { source: d.source });
    },
  },
  {
    service: 'play_media',
    name: 'Play media',
    feature: F.play_media,
    fields: {
      media_content_type: required(str()),
      media_content_id: required(str()),
      enqueue: str(),
      announce: bool(),
      extra: any(),
    },
    plan: (s, d, ctx) =>
      to(s, 'playing', ctx, {
        media_content_id: d.media_content_id,
        media_content_type: d.media_content_type,
        media_title: d.media_content_id,
        media_position: 0,
        media_position_updated_at: new Date(ctx.home.clock.ms()).toISOString().replace('Z', '+00:00'),
      }),
  },
];

export const media_player: DomainModule = {
  domain: 'media_player',
  services,
  setup(device) {
    const features = featureMask(
      device.features,
      F,
      F.pause |
        F.volume_set |
        F.volume_mute |
        F.play_media |
        F.play |
        F.stop |
        F.select_source |
        F.turn_on |
        F.turn_off,
    );
    const sources = Array.isArray(device.source_list) ? device.source_list : ['Radio', 'Spotify', 'TV'];
    return {
      state: 'idle',
      attributes: {
        volume_level: 0.5,
        is_volume_muted: false,
        source: sources[0] ?? null,
        source_list: sources,
        friendly_name: device.name,
        supported_features: features,
      },
    };
  },
};

// English sentences → an intent and its slots, for the common intents of HA's default agent
// (turn on/off, toggle, open/close, brightness, colour, temperature, position, volume, media,
// "what is the state of …", "is … on"). The target phrase ("the lights in the kitchen",
// "kitchen light", "Living Room Blinds") becomes name/area/floor/domain slots.
import type { Home } from '../core/home.js';
import { findArea } from '../core/registry/lookup.js';
import { COLORS } from './colors.js';
import type { IntentSlots } from './intents.js';
import { exposed, namesOf, normalize } from './targets.js';

/** Words for a kind of device → its domain (and device class). */
const DOMAIN_WORDS: Array<[RegExp, string, string?]> = [
  [/^(?:lights?|lamps?|lighting)$/, 'light'],
  [/^switch(?:es)?$/, 'switch'],
  [/^garage doors?$/, 'cover', 'garage'],
  [/^(?:blinds?|curtains?|shades?|shutters?|covers?|windows?)$/, 'cover'],
  [/^fans?$/, 'fan'],
  [/^(?:speakers?|music|tv|media players?)$/, 'media_player'],
  [/^(?:heating|thermostats?|hvac|heaters?|ac|air conditioning|climate)$/, 'climate'],
];

function domainWord(word: string): Pick<IntentSlots, 'domain' | 'device_class'> | undefined {
  for (const [re, domain, deviceClass] of DOMAIN_WORDS)
    if (re.test(word)) return { domain: [domain], ...(deviceClass ? { device_class: [deviceClass] } : {}) };
  return undefined;
}

const isEntityName = (home: Home, text: string) => exposed(home).some((s) => namesOf(home, s).includes(text));
const isArea = (home: Home, text: string) => !!findArea(home.registry, text);
const floorOf = (home: Home, text: string) =>
  [...home.registry.floors.values()].find(
    (f) => normalize(f.name) === text || f.aliases.some((a) => normalize(a) === text),
  );

/** A spoken target → slots: an entity name, or [area] [kind], or a kind "in the" area/floor. */
function parseTarget(home: Home, phrase: string): IntentSlots {
  let p = normalize(phrase)
    .replace(/ please$/, '')
    .replace(/^(?:all (?:of )?(?:the )?|every )/, '')
    .replace(/^the /, '');
  if (isEntityName(home, p)) return { name: p };
  const slots: IntentSlots = {};
  const where = /^(.*?) (?:in|at|on) (?:the )?(.+?)(?: floor)?$/.exec(p);
  if (where && (isArea(home, where[2]) || floorOf(home, where[2]))) {
    if (isArea(home, where[2])) slots.area = where[2]!;
    else slots.floor = floorOf(home, where[2])!.name;
    p = where[1].replace(/^(?:all (?:of )?(?:the )?)/, '').replace(/^the /, '');
    if (!p || p === 'everything') return slots;
    if (isEntityName(home, p)) return { ...slots, name: p };
  }
  const kind = domainWord(p);
  if (kind) return { ...slots, ...kind };
  if (isArea(home, p)) return { ...slots, area: p };
  // "kitchen lights": an area, then a kind of device.
  const words = p.split(' ');
  for (let i = words.length - 1; i > 0; i--) {
    const area = words.slice(0, i).join(' ');
    const rest = domainWord(words.slice(i).join(' '));
    if (rest && isArea(home, area)) return { ...slots, area, ...rest };
  }
  return { ...slots, name: p };
}

export interface MatchedSentence {
  intent: string;
  slots: IntentSlots;
}

const COLOR = `(${Object.keys(COLORS).join('|')})`;
const NUM = '(\\d+(?:\\.\\d+)?)';
const PCT = '(?: ?%| percent)';

type Rule = [RegExp, (home: Home, m: RegExpExecArray) => MatchedSentence];

/** "set X to N%" means brightness, position or volume depending on what X is. */
function percentOf(home: Home, target: string, n: number): MatchedSentence {
  const slots = parseTarget(home, target);
  const named = slots.name ? exposed(home).find((s) => namesOf(home, s).includes(normalize(slots.name!))) : undefined;
  const domain = named?.domain ?? slots.domain?.[0];
  if (domain === 'cover') return { intent: 'HassSetPosition', slots: { ...slots, position: n } };
  if (domain === 'media_player') return { intent: 'HassSetVolume', slots: { ...slots, volume_level: n } };
  return { intent: 'HassLightSet', slots: { ...withKind(slots, 'light'), brightness: n } };
}

/** An area alone means that area's devices of the intent's kind ("dim the kitchen" → its lights). */
const withKind = (slots: IntentSlots, domain: string): IntentSlots =>
  slots.name || slots.domain ? slots : { ...slots, domain: [domain] };

const RULES: Rule[] = [
  [
    new RegExp(`^(?:set|change|turn|make) (?:the )?colou?r of (.+?) to ${COLOR}$`),
    (h, m) => ({ intent: 'HassLightSet', slots: { ...withKind(parseTarget(h, m[1]), 'light'), color: m[2] } }),
  ],
  [
    new RegExp(`^(?:set|change|turn|make) (.+?) (?:colou?r )?(?:to )?${COLOR}$`),
    (h, m) => ({ intent: 'HassLightSet', slots: { ...withKind(parseTarget(h, m[1]), 'light'), color: m[2] } }),
  ],
  [
    new RegExp(`^(?:set|change|dim|brighten|turn) (?:the )?brightness (?:of |for |in )?(.+?) to ${NUM}${PCT}?$`),
    (h, m) => ({
      intent: 'HassLightSet',
      slots: { ...withKind(parseTarget(h, m[1]), 'light'), brightness: Number(m[2]) },
    }),
  ],
  [
    new RegExp(
      `^set (?:the )?(?:temperature|heating|thermostat)(?: (?:in|of|for|on) (.+?))? to ${NUM}(?: degrees?)?(?: celsius| fahrenheit)?$`,
    ),
    (h, m) => ({
      intent: 'HassClimateSetTemperature',
      slots: { ...(m[1] ? withKind(parseTarget(h, m[1]), 'climate') : {}), temperature: Number(m[2]) },
    }),
  ],
  [
    new RegExp(`^set (.+?) to ${NUM} degrees?(?: celsius| fahrenheit)?$`),
    (h, m) => ({
      intent: 'HassClimateSetTemperature',
      slots: { ...withKind(parseTarget(h, m[1]), 'climate'), temperature: Number(m[2]) },
    }),
  ],
  [
    new RegExp(`^set (?:the )?volume(?: (?:of|on|for) (.+?))? to ${NUM}${PCT}?$`),
    (h, m) => ({
      intent: 'HassSetVolume',
      slots: { ...(m[1] ? withKind(parseTarget(h, m[1]), 'media_player') : {}), volume_level: Number(m[2]) },
    }),
  ],
  [
    new RegExp(`^(?:set|open|close) (.+?) (?:position )?to ${NUM}${PCT}?$`),
    (h, m) =>
      / position$/.test(m[1])
        ? {
            intent: 'HassSetPosition',
            slots: { ...parseTarget(h, m[1].replace(/ position$/, '')), position: Number(m[2]) },
          }
        : percentOf(h, m[1], Number(m[2])),
  ],
  [
    new RegExp(`^(?:dim|brighten) (.+?) to ${NUM}${PCT}?$`),
    (h, m) => ({
      intent: 'HassLightSet',
      slots: { ...withKind(parseTarget(h, m[1]), 'light'), brightness: Number(m[2]) },
    }),
  ],
  [/^(?:turn|switch|power) on (.+)$/, (h, m) => ({ intent: 'HassTurnOn', slots: parseTarget(h, m[1]) })],
  [/^(?:turn|switch|power) (.+) on$/, (h, m) => ({ intent: 'HassTurnOn', slots: parseTarget(h, m[1]) })],
  [/^(?:turn|switch|power) off (.+)$/, (h, m) => ({ intent: 'HassTurnOff', slots: parseTarget(h, m[1]) })],
  [/^(?:turn|switch|power) (.+) off$/, (h, m) => ({ intent: 'HassTurnOff', slots: parseTarget(h, m[1]) })],
  [/^(?:activate|enable|start) (.+)$/, (h, m) => ({ intent: 'HassTurnOn', slots: parseTarget(h, m[1]) })],
  [/^(?:deactivate|disable) (.+)$/, (h, m) => ({ intent: 'HassTurnOff', slots: parseTarget(h, m[1]) })],
  [/^toggle (.+)$/, (h, m) => ({ intent: 'HassToggle', slots: parseTarget(h, m[1]) })],
  [/^(?:open|raise) (.+)$/, (h, m) => ({ intent: 'HassTurnOn', slots: withKind(parseTarget(h, m[1]), 'cover') })],
  [
    /^(?:close|shut|lower) (.+)$/,
    (h, m) => ({ intent: 'HassTurnOff', slots: withKind(parseTarget(h, m[1]), 'cover') }),
  ],
  [
    /^what(?:s| is) the (?:current )?(?:temperature|temp)(?: (?:in|of|on) (.+?))?$/,
    (h, m) => ({ intent: 'HassClimateGetTemperature', slots: m[1] ? parseTarget(h, m[1]) : {} }),
  ],
  [
    /^(?:what(?:s| is) the (?:state|status) of|what(?:s| is)) (.+?)(?: set to| doing)?$/,
    (h, m) => ({ intent: 'HassGetState', slots: parseTarget(h, m[1]) }),
  ],
  [
    /^(?:is|are) (.+?) (on|off|open|closed|locked|unlocked|playing|paused|idle|home|away)$/,
    (h, m) => ({ intent: 'HassGetState', slots: { ...parseTarget(h, m[1]), state: m[2] } }),
  ],
  [/^pause(?: (?:the )?(.+))?$/, (h, m) => ({ intent: 'HassMediaPause', slots: m[1] ? parseTarget(h, m[1]) : {} })],
  [
    /^(?:resume|unpause|continue)(?: (?:the )?(.+))?$/,
    (h, m) => ({ intent: 'HassMediaUnpause', slots: m[1] ? parseTarget(h, m[1]) : {} }),
  ],
  [
    /^(?:next|skip)(?: (?:track|song))?(?: on (?:the )?(.+))?$/,
    (h, m) => ({ intent: 'HassMediaNext', slots: m[1] ? parseTarget(h, m[1]) : {} }),
  ],
  [
    /^previous(?: (?:track|song))?(?: on (?:the )?(.+))?$/,
    (h, m) => ({ intent: 'HassMediaPrevious', slots: m[1] ? parseTarget(h, m[1]) : {} }),
  ],
];

/** Longer than anything said to a home; the rules' lazy groups are quadratic in the worst case. */
const MAX_SENTENCE = 500;

export function matchSentence(home: Home, text: string): MatchedSentence | undefined {
  if (text.length > MAX_SENTENCE) return undefined;
  const t = normalize(text.replace(/[?!.]+$/, ''))
    .replace(/^(?:please |hey |ok )/, '')
    .replace(/ please$/, '');
  for (const [re, build] of RULES) {
    const m = re.exec(t);
    if (m) return build(home, m);
  }
  return undefined;
}

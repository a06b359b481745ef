// Every entity domain the home knows. Adding a domain: write its file, add one line here.
import { binary_sensor } from './binary_sensor.js';
import { climate } from './climate.js';
import { counter } from './counter.js';
import { cover } from './cover.js';
import type { DomainModule } from './domain.js';
import { input_boolean } from './input_boolean.js';
import { input_number } from './input_number.js';
import { input_select } from './input_select.js';
import { input_text } from './input_text.js';
import { light } from './light.js';
import { media_player } from './media_player.js';
import { notify } from './notify.js';
import { scene } from './scene.js';
import { script } from './script.js';
import { sensor } from './sensor.js';
import { switchDomain } from './switch.js';
import { tag } from './tag.js';
import { timer } from './timer.js';

export const DOMAINS: DomainModule[] = [
  light,
  climate,
  media_player,
  cover,
  notify,
  switchDomain,
  sensor,
  binary_sensor,
  input_boolean,
  input_number,
  input_select,
  input_text,
  counter,
  timer,
  script,
  scene,
  tag,
];

export type { DeviceConfig } from '../core/registry/config.js';
export type { DomainModule } from './domain.js';

// Every entity domain the home knows. Adding a domain: write its file, add one line here.
import { binary_sensor } from './binary_sensor.js';
import { climate } from './climate.js';
import { cover } from './cover.js';
import type { DomainModule } from './domain.js';
import { light } from './light.js';
import { media_player } from './media_player.js';
import { notify } from './notify.js';
import { sensor } from './sensor.js';
import { switchDomain } from './switch.js';

export const DOMAINS: DomainModule[] = [light, climate, media_player, cover, notify, switchDomain, sensor, binary_sensor];

export type { DeviceConfig, DomainModule } from './domain.js';

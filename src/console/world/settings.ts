// The world's limits and folders (docs/harness.md, "Limits"): how large a snapshot file may be
// before it is refused, how much of a diff one answer holds, and where the admin API may read
// scenario files from. Read with the platform's settings kit like every other setting.
import type { SettingsKit } from '../../platform/settings.js';

export interface WorldSettings {
  /** HAMLET_WORLD_MAX_FILE: bytes of a snapshot file as stored (gzip'd): an upload, a file loaded. */
  maxFileBytes: number;
  /** HAMLET_WORLD_MAX_BYTES: bytes of a snapshot once decompressed. */
  maxBytes: number;
  /** HAMLET_WORLD_MAX_LINE: bytes of one line of it (the header, or one row). */
  maxLineBytes: number;
  /** HAMLET_WORLD_MAX_ROWS: rows in one snapshot. */
  maxRows: number;
  /** HAMLET_WORLD_DIFF_PAGE: changes one diff answer holds at most (and gives when not asked for fewer). */
  diffPage: number;
  /** HAMLET_WORLD_DIFF_PAGE_BYTES: a diff answer ends after the change that takes its rows past this many bytes. */
  diffPageBytes: number;
  /** HAMLET_SCENARIO_DIR: the folder the admin API reads scenarios' workflow files from; unset: inline definitions only. */
  scenarioDir?: string;
}

const MiB = 1024 * 1024;

/**
 * The defaults hold the large demo world (112k rows, 3.7 MB gzip'd) many times over and a
 * 400k-row world with room to spare, while a bomb stops after at most 2 GiB of inflating.
 */
export const WORLD_DEFAULTS: WorldSettings = {
  maxFileBytes: 512 * MiB,
  maxBytes: 2048 * MiB,
  // A row holds at most one stored message (MAIL_MAX_MESSAGE_BYTES, 6 MiB by default), base64'd.
  maxLineBytes: 64 * MiB,
  // A restore holds every row in memory (one transaction): about 1 KB each.
  maxRows: 2_000_000,
  diffPage: 1000,
  diffPageBytes: 16 * MiB,
};

export function readWorldSettings(kit: SettingsKit): WorldSettings {
  const scenarioDir = kit.raw('HAMLET_SCENARIO_DIR');
  return {
    maxFileBytes: kit.count('HAMLET_WORLD_MAX_FILE', WORLD_DEFAULTS.maxFileBytes, 1024),
    maxBytes: kit.count('HAMLET_WORLD_MAX_BYTES', WORLD_DEFAULTS.maxBytes, 1024),
    maxLineBytes: kit.count('HAMLET_WORLD_MAX_LINE', WORLD_DEFAULTS.maxLineBytes, 1024),
    maxRows: kit.count('HAMLET_WORLD_MAX_ROWS', WORLD_DEFAULTS.maxRows, 1),
    diffPage: kit.count('HAMLET_WORLD_DIFF_PAGE', WORLD_DEFAULTS.diffPage, 1, 100_000),
    diffPageBytes: kit.count('HAMLET_WORLD_DIFF_PAGE_BYTES', WORLD_DEFAULTS.diffPageBytes, 1024),
    ...(scenarioDir ? { scenarioDir } : {}),
  };
}

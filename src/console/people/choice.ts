// A simulated person's choice among several texts (a rule's `reply: [a, b, c]`), drawn from a
// seed, so people vary without being random: the same seed, person, rule and turn always give
// the same text, whatever else happens at the same time. In an evaluation the seed is the task's
// `people_seed` plus the episode's number, so repeats of a task meet different answers, and a
// rerun meets the same ones.
import { seededRandom } from '../world/determinism.js';

/** FNV-1a of a text: a 32-bit number to seed the generator with. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One of `options` (a text is its own only option) for this seed, person, rule and turn (0, 1, …). */
export function chooseText(
  options: string | string[],
  at: { seed: number; person: string; rule: number; turn: number },
): string {
  if (typeof options === 'string') return options;
  const draw = seededRandom(hash32(`${at.seed}/${at.person}/${at.rule}/${at.turn}`))();
  return options[Math.floor(draw * options.length)];
}

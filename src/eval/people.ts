// The simulated people of an episode: the task's scenario's `people` and the task's own (a
// task's person replaces the scenario's of the same name), armed in the episode's instance
// once its world is restored, so they hear only that episode's mail and posts and act in its
// world, traced in its epoch. Stopped before the end state is read: nothing they were told to
// do is left half done, and nothing of theirs (timers, keys) outlives the episode.
import { CONSOLE_KEY_NAME } from '../platform/keys.js';
import { AgentKeysError, mintAgentKeys } from '../console/world/agent-keys.js';
import type { PersonSpec } from '../console/world/people-rules.js';
import { PeopleEngine } from '../console/people/engine.js';
import type { Instance } from './pool.js';
import { TaskError, type Task } from './task.js';

/** The people of a task, scenario's first, then the task's (which win by name). */
function peopleOfTask(task: Task): PersonSpec[] {
  const byName = new Map<string, PersonSpec>();
  for (const p of task.world.scenario?.scenario.people ?? []) byName.set(p.name, p);
  for (const p of task.people) byName.set(p.name, p);
  return [...byName.values()];
}

/**
 * Refuses, before any episode, a task whose people are not agents of its world (on a demo or a
 * snapshot their names are known only now): each must have an account to act with. The keys
 * this finds them with are revoked at once.
 */
export async function checkPeopleCanAct(task: Task, instance: Instance): Promise<void> {
  const { platform, services } = instance.hamlet;
  for (const person of peopleOfTask(task)) {
    try {
      const keys = await mintAgentKeys(platform, person.name, Object.keys(services), undefined, CONSOLE_KEY_NAME);
      for (const [service, { key }] of Object.entries(keys)) {
        const record = await platform.keys.verify(service, key);
        if (record) await platform.keys.revoke({ service, id: record.id });
      }
    } catch (err) {
      if (err instanceof AgentKeysError) throw new TaskError(`${task.file}: people: ${err.message}`);
      throw err;
    }
  }
}

/**
 * Arms the task's people on an instance (checkPeopleCanAct vouched for them when the world was
 * made); what they could not do goes to `onError`.
 */
export async function startPeople(
  task: Task,
  instance: Instance,
  episode: number,
  onError: (message: string) => void,
): Promise<PeopleEngine | undefined> {
  const people = peopleOfTask(task);
  if (!people.length) return undefined;
  const engine = new PeopleEngine(instance.hamlet.platform, Object.keys(instance.hamlet.services), {
    onError,
    // Episode 1 draws from the task's seed itself, each repeat from the next.
    seed: (task.peopleSeed + episode - 1) >>> 0,
  });
  try {
    await engine.arm(people);
  } catch (err) {
    await engine.stop();
    throw err;
  }
  return engine;
}

/** Everything the people and the services started has finished (what waits on the clock aside). */
export async function settlePeople(engine: PeopleEngine, instance: Instance): Promise<void> {
  const { jobs } = instance.hamlet.platform;
  // A person's reply is a job (its delivery), a delivered mail may wake a person: until both rest.
  for (let round = 0; round < 20; round++) {
    await engine.idle();
    await jobs.idle(undefined, 60_000);
    if (!engine.busy) return;
  }
}

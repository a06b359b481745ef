// The home's changed rows as people read them (the semantic diff of evaluations): an entity's
// state and attributes before and after, automations made, changed or deleted. The recorder's
// history rows and events are the record of those same changes, so they add nothing.
import { fieldChanges, shown, type WorldChangeDescriber, type WorldRow } from '../../../platform/world.js';

interface StoredState {
  state?: string;
  attributes?: Record<string, unknown>;
}

function parsed(row: WorldRow | undefined): StoredState {
  try {
    return JSON.parse(String(row?.data ?? '{}')) as StoredState;
  } catch {
    return {};
  }
}

export const describeHomeChange: WorldChangeDescriber = (c) => {
  if (c.table === 'home_states' || c.table === 'home_events') return null;
  if (c.table === 'home_automations') {
    const id = String(c.key.id);
    const deleted = c.change === 'removed' || (c.after && c.after.config === null);
    if (deleted) return { kind: 'automation.deleted', subject: id, text: `automation ${id} deleted` };
    return c.change === 'added'
      ? { kind: 'automation.created', subject: id, text: `automation ${id} created` }
      : { kind: 'automation.changed', subject: id, text: `automation ${id} changed` };
  }
  if (c.table !== 'home_entities') return undefined;
  const id = String(c.key.entity_id);
  if (c.change === 'removed') return { kind: 'entity.removed', subject: id, text: `${id} removed` };
  const after = parsed(c.after);
  if (c.change === 'added')
    return { kind: 'entity.created', subject: id, text: `${id} created: state ${shown(after.state)}` };
  const before = parsed(c.before);
  const attrs = [...new Set([...Object.keys(before.attributes ?? {}), ...Object.keys(after.attributes ?? {})])].sort();
  const attributeChanges = attrs
    .map((a) => fieldChanges(before.attributes ?? {}, after.attributes ?? {}, [a]))
    .filter(Boolean)
    .map((t) => `attribute ${t}`);
  const parts = [fieldChanges({ state: before.state }, { state: after.state }, ['state']), ...attributeChanges].filter(
    Boolean,
  );
  // Only its times or context moved (a reading that repeated the state): nothing a person sees.
  if (!parts.length) return null;
  return { kind: 'entity.changed', subject: id, text: `${id}: ${parts.join('; ')}` };
};

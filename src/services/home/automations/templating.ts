// Templates in automations: checking them when a config is loaded, HA's reading of a result as
// true or false, and the value numeric_state compares (a state, an attribute, or what its
// value_template makes of the state).
import type { Home } from '../core/home.js';
import type { State } from '../core/state.js';
import { compileTemplate, isTemplate, renderText, TemplateError } from '../templates/index.js';
import { ConfigProblem } from './config-values.js';

/** The template text of a config key; a ConfigProblem (HA's wording) when it is missing or does not compile. */
export function templateOf(value: unknown, key: string): string {
  if (typeof value !== 'string') throw new ConfigProblem(`expected str for dictionary value @ data['${key}']`);
  try {
    compileTemplate(value);
  } catch (err) {
    if (err instanceof TemplateError)
      throw new ConfigProblem(`invalid template (${err.message}) for dictionary value @ data['${key}']`);
    throw err;
  }
  return value;
}

/** HA's result_as_boolean: "true", "yes", "on", "enable" or a non-zero number. */
export function resultAsBoolean(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (['true', 'yes', 'on', 'enable'].includes(t)) return true;
  const n = Number(t);
  return t !== '' && Number.isFinite(n) && n !== 0;
}

/** The number numeric_state compares, or NaN when the value is not a number. */
export function numericValue(
  home: Home,
  s: State | null | undefined,
  attribute: string | undefined,
  valueTemplate: string | undefined,
): number {
  if (!s) return NaN;
  let raw: unknown = attribute ? s.attributes[attribute] : s.state;
  if (valueTemplate) raw = renderText(home, valueTemplate, { state: s });
  if (typeof raw === 'number') return raw;
  return typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
}

/** Checks every template inside a data value (service data, event data) when the config is loaded. */
export function checkTemplatesIn(value: unknown, key: string): void {
  if (typeof value === 'string') {
    if (isTemplate(value)) templateOf(value, key);
  } else if (Array.isArray(value)) value.forEach((v, i) => checkTemplatesIn(v, `${key}[${i}]`));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) checkTemplatesIn(v, `${key}.${k}`);
}

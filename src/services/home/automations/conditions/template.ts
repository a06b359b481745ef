// template condition: `{condition: template, value_template: "{{ … }}"}`, or the shorthand of
// a bare template string; true when the result reads as true (HA's result_as_boolean).
import { renderText, TemplateError } from '../../templates/index.js';
import { resultAsBoolean, templateOf } from '../templating.js';
import type { ConditionType } from './types.js';

export const templateCondition: ConditionType = {
  compile(c) {
    const source = templateOf(c.value_template, 'value_template');
    return (home, vars) => {
      try {
        return resultAsBoolean(renderText(home, source, vars));
      } catch (err) {
        // HA: a condition that cannot be evaluated is not met, and the error is logged.
        if (!(err instanceof TemplateError)) throw err;
        home.logger.warn({ template: source, err: err.message }, 'home: template condition failed');
        return false;
      }
    };
  },
};

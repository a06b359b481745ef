// Home Assistant's templates (Jinja2 syntax with HA's functions): rendering, results as HA
// reads them, renders kept up to date, and the registry hook for areas and devices.
export { compileTemplate, DEFAULT_LIMITS, isTemplate, renderTemplate, TemplateError } from './engine.js';
export { hasTemplate, renderComplex, renderText } from './render-data.js';
export { trackTemplate } from './tracker.js';
export { worldOf } from './world.js';

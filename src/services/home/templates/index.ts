// Home Assistant's templates (Jinja2 syntax with HA's functions): rendering, results as HA
// reads them, renders kept up to date, and the registry hook for areas and devices.
export { compileTemplate, isTemplate, renderTemplate, TemplateError } from './engine.js';
export { hasTemplate, renderComplex, renderText, renderValue } from './render-data.js';
export { trackTemplate, type TrackedResult } from './tracker.js';
export { setTemplateRegistry, worldOf, type TemplateRegistry } from './world.js';

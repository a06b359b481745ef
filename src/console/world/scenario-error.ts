// What a scenario does wrong (its shape, a name it does not declare, a step a service refused):
// answered as a 400 naming the place, never a 500.
export class ScenarioError extends Error {}

// Endpoints of the plan area (issue 4). Filled in by the module's author.
export {};

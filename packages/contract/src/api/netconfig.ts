// Endpoints of the netconfig area (issue 4). Filled in by the module's author.
export {};

// Endpoints of the commserv area (issue 4). Filled in by the module's author.
export {};

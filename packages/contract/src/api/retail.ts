// Endpoints of retail plans (issue 4). Filled in by the module's author.
export {};

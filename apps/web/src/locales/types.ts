/** The English messages must have exactly the Chinese keys: a missing key fails the type check. */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };

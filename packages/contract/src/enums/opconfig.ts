// Enums of the opconfig area (issue 4), each with zh/en labels via defineEnum.
export {};

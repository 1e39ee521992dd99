/** Texts of the netconfig area (issue 4). */
export default {};

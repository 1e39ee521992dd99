/** Texts of the plan area (issue 4). */
export default {};

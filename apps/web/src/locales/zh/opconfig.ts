/** Texts of the opconfig area (issue 4). */
export default {};

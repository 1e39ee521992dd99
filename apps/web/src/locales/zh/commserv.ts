/** Texts of the commserv area (issue 4). */
export default {};

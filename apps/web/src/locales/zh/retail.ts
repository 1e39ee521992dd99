/** Texts of retail plans (issue 4). */
export default {};

/** The key namespace of console administrators (keys look like `hamlet_admin_…`); kept apart so the CLI loads nothing else of the console. */
export const ADMIN_KEYS = 'admin';
